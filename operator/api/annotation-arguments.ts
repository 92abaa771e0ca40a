import { z } from 'zod';
import { asGoStructFields } from './go-json.ts';

/** A flat JSON object read as Go's json.Unmarshal reads it into a struct (see `asGoStructFields`). */
export function goJsonStruct<Shape extends z.ZodRawShape>(shape: Shape) {
  const fields = Object.keys(shape);
  return z.preprocess((raw) => asGoStructFields(raw, fields), z.object(shape));
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
