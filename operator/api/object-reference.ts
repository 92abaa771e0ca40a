import { z } from 'zod';

/** A reference to any object (core/v1 ObjectReference); replaced as a whole by apply. */
export const objectReferenceSchema = z
  .object({
    apiVersion: z.string().optional().describe('API version of the referenced object.'),
    kind: z.string().optional().describe('Kind of the referenced object.'),
    name: z.string().optional().describe('Name of the referenced object.'),
    namespace: z.string().optional().describe('Namespace of the referenced object.'),
    uid: z.string().optional().describe('UID of the referenced object.'),
    resourceVersion: z.string().optional().describe('Resource version the reference was made against, if any.'),
    fieldPath: z.string().optional().describe('Path to a part of the object instead of the whole, e.g. a container.'),
  })
  .meta({ 'x-kubernetes-map-type': 'atomic' });

export type ObjectReference = z.infer<typeof objectReferenceSchema>;
