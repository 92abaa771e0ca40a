import { z } from 'zod';

/** Labels and annotations Cluster API copies onto objects cloned from a template. */
export const templateMetadataSchema = z.object({
  labels: z.record(z.string(), z.string()).optional().describe('Labels for the cloned object.'),
  annotations: z.record(z.string(), z.string()).optional().describe('Annotations for the cloned object.'),
}).describe('Metadata for the cloned object.');
