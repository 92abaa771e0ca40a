import { z } from 'zod';

export const CHECKSUM_TYPES = ['md5', 'sha256', 'sha512', 'auto'] as const;
export type ChecksumType = (typeof CHECKSUM_TYPES)[number];

export const IMAGE_FORMATS = ['raw', 'qcow2', 'vdi', 'vmdk', 'live-iso'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** An image to deploy, or the one last deployed (status). */
export const imageSchema = z.object({
  url: z.string().describe('Where to fetch the image: http(s), ftp or oci URL.'),
  checksum: z.string().optional()
    .describe('Checksum value or URL of a checksum file; required unless the format is live-iso or the URL is oci://.'),
  checksumType: z.enum(CHECKSUM_TYPES).optional().describe('Checksum algorithm; auto or unset lets Ironic detect it.'),
  format: z.enum(IMAGE_FORMATS).optional().describe('Disk format; live-iso boots the ISO instead of writing it to disk.'),
  ociAuthSecretName: z.string().optional()
    .describe('Docker-config Secret in the same namespace with registry credentials for oci:// images.'),
});

export type Image = z.infer<typeof imageSchema>;
