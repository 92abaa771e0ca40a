import { z } from 'zod';

/** How to reach the host's baseboard management controller. */
export const bmcDetailsSchema = z.object({
  address: z.string().describe('BMC URL; its scheme selects the driver (e.g. redfish://, ipmi://).'),
  credentialsName: z.string().describe('Secret in the host namespace with `username` and `password` keys.'),
  disableCertificateVerification: z.boolean().optional()
    .describe('Skip TLS verification of the BMC; insecure, for self-signed certificates.'),
});

export type BmcDetails = z.infer<typeof bmcDetailsSchema>;
