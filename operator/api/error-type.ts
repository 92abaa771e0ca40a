import { z } from 'zod';

/**
 * Values of `status.errorType`: which phase failed. `detach error` is written by BMO's Go
 * code when removing a detached host's Ironic node fails, yet upstream's CRD enum leaves it
 * out, so such a status write would be rejected there; our CRD accepts it.
 */
export const ERROR_TYPES = [
  'provisioned registration error',
  'registration error',
  'inspection error',
  'preparation error',
  'provisioning error',
  'power management error',
  'detach error',
  'servicing error',
] as const;

export type ErrorType = (typeof ERROR_TYPES)[number];

export const errorTypeSchema = z.enum(ERROR_TYPES);
