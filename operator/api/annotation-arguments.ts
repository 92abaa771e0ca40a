import { z } from 'zod';

/** The JSON value of a reboot annotation; BMO defaults to a soft reboot. */
export const rebootAnnotationArgumentsSchema = z.object({
  mode: z.enum(['hard', 'soft']).optional(),
  force: z.boolean().optional(),
});
export type RebootAnnotationArguments = z.infer<typeof rebootAnnotationArgumentsSchema>;

/** The JSON value of the detached annotation. */
export const detachedAnnotationArgumentsSchema = z.object({
  deleteAction: z.enum(['delay', 'delete']).optional(),
  force: z.boolean().optional(),
});
export type DetachedAnnotationArguments = z.infer<typeof detachedAnnotationArgumentsSchema>;
