import { fieldErrorBody } from '../../../operator/runtime/index.ts';
import type { Metal3Machine } from '../../api/index.ts';
import { machineSpecErrors } from '../../webhooks/index.ts';

/**
 * What CAPM3's webhook refuses, reported as a condition too: the webhook may be off
 * (--webhook-port=0) or the object may predate it. An image with a custom deploy method is
 * not among them: CAPM3 writes both to the host, and the method decides what the image is for.
 */
export function machineSpecProblems(m3m: Metal3Machine): string[] {
  const errors = machineSpecErrors(m3m.spec, { namespace: m3m.metadata.namespace, base: 'spec' });
  return errors.map((error) => `${error.field}: ${fieldErrorBody(error)}`);
}
