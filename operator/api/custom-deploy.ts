import { z } from 'zod';

/** A deploy step provided by a site-specific ramdisk, used instead of writing an image. */
export const customDeploySchema = z.object({
  method: z.string().describe('Name of the custom deploy step the ramdisk provides.'),
});

export type CustomDeploy = z.infer<typeof customDeploySchema>;
