import { z } from 'zod';
import { secretReferenceSchema } from './secret-reference.ts';

/** A credentials Secret and the resourceVersion seen; a new resourceVersion means re-register. */
export const credentialsStatusSchema = z.object({
  credentials: secretReferenceSchema.optional().describe('The credentials Secret.'),
  credentialsVersion: z.string().optional().describe('resourceVersion of the Secret when it was used.'),
});

export type CredentialsStatus = z.infer<typeof credentialsStatusSchema>;
