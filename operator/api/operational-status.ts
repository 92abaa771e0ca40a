import { z } from 'zod';

/** Values of `status.operationalStatus` (the `STATUS` column of `kubectl get bmh -o wide`). */
export const OPERATIONAL_STATUSES = ['', 'OK', 'discovered', 'error', 'delayed', 'detached', 'servicing'] as const;

export type OperationalStatus = (typeof OPERATIONAL_STATUSES)[number];

export const operationalStatusSchema = z.enum(OPERATIONAL_STATUSES);
