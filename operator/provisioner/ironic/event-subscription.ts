// BMO's BMCEventSubscription calls: Ironic's redfish vendor passthru methods create_subscription
// (POST) and delete_subscription (DELETE), which Ironic runs against the BMC's EventService.
// Header values are credentials of the event receiver: Ironic's own failure message quotes the
// whole payload, so no message leaves here with them in it.
import { IronicApiError, IronicError } from '../../../ironic-client/index.ts';
import type { EventSubscriptionRequest, HostIdentity } from '../provisioner.ts';
import { NeedsRegistrationError, TransientProvisionerError, done, failed } from '../result.ts';
import type { ProvisionerResult } from '../result.ts';
import type { ProvisionerContext } from './context.ts';
import { ironicMessage, isNotFound } from './ironic-errors.ts';
import { ironicNodeName } from './node-name.ts';

const identOf = (host: HostIdentity) => host.nodeId || ironicNodeName(host);

/** Ironic's "Subscription payload: {...}. Error:" part, which repeats every header. */
const PAYLOAD_QUOTE = /Subscription payload: .*?\. Error: /s;
const REDACTED = '<redacted>';

/** The message without the payload Ironic quotes, and without any header value anywhere else. */
export function withoutHeaderValues(message: string, headers: readonly Record<string, string>[]): string {
  let clean = message.replace(PAYLOAD_QUOTE, 'Subscription payload: <redacted>. Error: ');
  const values = headers.flatMap((header) => Object.values(header)).filter((value) => value.length > 0);
  for (const value of values.sort((a, b) => b.length - a.length)) clean = clean.split(value).join(REDACTED);
  return clean;
}

export async function addEventSubscription(
  context: ProvisionerContext,
  options: { host: HostIdentity; subscription: EventSubscriptionRequest },
): Promise<ProvisionerResult<{ subscriptionId: string }>> {
  const ident = identOf(options.host);
  const { destination, context: eventContext, httpHeaders } = options.subscription;
  try {
    const created = await context.client.nodes.createEventSubscription(ident, {
      destination,
      context: eventContext,
      ...(httpHeaders.length > 0 ? { httpHeaders } : {}),
    });
    return done({ subscriptionId: created.Id });
  } catch (error) {
    const message = withoutHeaderValues(ironicMessage(error), httpHeaders);
    if (isNotFound(error)) throw new NeedsRegistrationError(`node ${ident} not found in Ironic`);
    // Ironic refused the arguments (400) or the BMC refused the subscription (Ironic's 500 RedfishError).
    if (error instanceof IronicApiError && error.status !== 409 && error.status !== 503) return failed(`failed to create a subscription: ${message}`);
    // Locks the client gave up on, 503, lost connections: they clear by themselves. The cause
    // is left out, since the request it carries holds the headers.
    if (error instanceof IronicError) {
      throw new TransientProvisionerError(`failed to create a subscription: ${message}`, { retryAfterMs: context.delays.shortMs() });
    }
    throw error;
  }
}

export async function removeEventSubscription(
  context: ProvisionerContext,
  options: { host: HostIdentity; subscriptionId: string },
): Promise<ProvisionerResult> {
  try {
    await context.client.nodes.deleteEventSubscription(identOf(options.host), options.subscriptionId);
  } catch (error) {
    // Ironic answers 404 both for a node it no longer has and for a subscription the BMC no
    // longer has: either way nothing is left to remove through it.
    if (isNotFound(error)) return done();
    if (error instanceof IronicApiError && error.status !== 409 && error.status !== 503) {
      return failed(`failed to delete a subscription: ${error.faultstring}`);
    }
    throw error;
  }
  return done();
}
