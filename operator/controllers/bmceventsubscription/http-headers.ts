// The headers a BMCEventSubscription's Secret holds: one per key, as BMO sends them to Ironic.
// The values are the event receiver's credentials: returned, never logged or quoted.
import type { BMCEventSubscription } from '../../api/bmceventsubscription.ts';
import { isNotFound } from '../../runtime/kube-errors.ts';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';

export interface HeaderSecret extends KubeObject {
  data?: Record<string, string>;
}

export interface HeaderSecretReader {
  get(name: ObjectName, options?: { signal?: AbortSignal }): Promise<HeaderSecret>;
}

export type HeadersReading = { ok: true; headers: Record<string, string>[] } | { ok: false; problem: string };

/** BMO's status message for a Secret it could not use. */
export const HEADERS_SECRET_PROBLEM = 'failed to retrieve HTTP headers secret';

export async function readHttpHeaders(
  subscription: BMCEventSubscription,
  secrets: HeaderSecretReader,
  options: { signal?: AbortSignal } = {},
): Promise<HeadersReading> {
  const ref = subscription.spec.httpHeadersRef;
  if (!ref) return { ok: true, headers: [] };
  const namespace = subscription.metadata.namespace ?? '';
  if (ref.namespace !== namespace) {
    return { ok: false, problem: `${HEADERS_SECRET_PROBLEM}: httpHeadersRef secret must be in the same namespace as the BMCEventSubscription` };
  }
  let secret: HeaderSecret;
  try {
    secret = await secrets.get({ namespace, name: ref.name ?? '' }, options);
  } catch (error) {
    if (isNotFound(error)) return { ok: false, problem: `${HEADERS_SECRET_PROBLEM}: secret ${JSON.stringify(ref.name ?? '')} not found` };
    throw error;
  }
  const data = secret.data ?? {};
  const headers = Object.keys(data).sort().map((name) => ({ [name]: Buffer.from(data[name] ?? '', 'base64').toString('utf8') }));
  return { ok: true, headers };
}
