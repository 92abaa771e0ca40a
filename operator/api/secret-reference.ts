import { z } from 'zod';

/** A Secret named by namespace and name (core/v1 SecretReference); replaced as a whole by apply. */
export const secretReferenceSchema = z
  .object({
    name: z.string().optional().describe('Name of the Secret, unique within its namespace.'),
    namespace: z.string().optional().describe('Namespace the Secret lives in.'),
  })
  .meta({ 'x-kubernetes-map-type': 'atomic' });

export type SecretReference = z.infer<typeof secretReferenceSchema>;
