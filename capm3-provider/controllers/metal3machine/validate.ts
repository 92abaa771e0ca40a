import { fieldErrorBody } from '../../../operator/runtime/index.ts';
import type { Metal3Machine } from '../../api/index.ts';
import { machineSpecErrors } from '../../webhooks/index.ts';

/**
 * What CAPM3's webhook refuses, reported as a condition too: the webhook may be off
 * (--webhook-port=0) or the object may predate it. Plus one rule of our own: an image and a
 * custom deploy method together are ambiguous.
 */
export function machineSpecProblems(m3m: Metal3Machine): string[] {
  const { image, customDeploy } = m3m.spec;
  const exclusive = image && customDeploy ? ['spec.image and spec.customDeploy are mutually exclusive'] : [];
  const errors = machineSpecErrors(m3m.spec, { namespace: m3m.metadata.namespace, base: 'spec' });
  return [...exclusive, ...errors.map((error) => `${error.field}: ${fieldErrorBody(error)}`)];
}
