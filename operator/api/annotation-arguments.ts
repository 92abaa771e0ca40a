import { z } from 'zod';

/**
 * A flat JSON object read as Go's json.Unmarshal reads it into a struct: `null` (the whole value
 * or a field) leaves it unset, and a key matches its field in any case (`Mode` is `mode`).
 */
export function goJsonStruct<Shape extends z.ZodRawShape>(shape: Shape) {
  const fields = Object.keys(shape);
  const fieldFor = (key: string) => (fields.includes(key) ? key : fields.find((field) => field.toLowerCase() === key.toLowerCase()) ?? key);
  return z.preprocess((raw) => {
    if (raw === null) return {};
    if (typeof raw !== 'object' || Array.isArray(raw)) return raw;
    return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== null).map(([key, value]) => [fieldFor(key), value]));
  }, z.object(shape));
}

/** The JSON value of a reboot annotation; BMO defaults to a soft reboot. */
export const rebootAnnotationArgumentsSchema = goJsonStruct({
  mode: z.enum(['hard', 'soft']).optional(),
  force: z.boolean().optional(),
});
export type RebootAnnotationArguments = z.infer<typeof rebootAnnotationArgumentsSchema>;

/** The JSON value of the detached annotation. */
export const detachedAnnotationArgumentsSchema = goJsonStruct({
  deleteAction: z.enum(['delay', 'delete']).optional(),
  force: z.boolean().optional(),
});
export type DetachedAnnotationArguments = z.infer<typeof detachedAnnotationArgumentsSchema>;
