import { describe, expect, it } from '@jest/globals';
import { ironicError } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import { NeedsRegistrationError, TransientProvisionerError } from '../result.ts';
import { withoutHeaderValues } from './event-subscription.ts';
import { HOST, NODE_PATH, startKit } from './testing/ironic-test-kit.ts';

useNock();
const PASSTHRU = `${NODE_PATH}/vendor_passthru`;
const TOKEN = 'Bearer s3cr3t-token';
const subscription = { destination: 'https://127.0.0.1:9000/events', context: 'rack-4', httpHeaders: [{ Authorization: TOKEN }] };

describe('BMC event subscriptions through Ironic vendor passthru', () => {
  it('creates with create_subscription and returns the BMC\'s Id; deletes with delete_subscription', async () => {
    const kit = await startKit();
    kit.ironic.post(PASSTHRU, { Destination: subscription.destination, Context: 'rack-4', HttpHeaders: [{ Authorization: TOKEN }] })
      .query({ method: 'create_subscription' })
      .reply(200, { Id: '7', Destination: subscription.destination, Context: 'rack-4', EventTypes: ['Alert'], Protocol: 'Redfish' });
    kit.ironic.delete(PASSTHRU, { id: '7' }).query({ method: 'delete_subscription' }).reply(200, null);
    expect(await kit.provisioner.addEventSubscription({ host: HOST, subscription })).toEqual({ kind: 'done', value: { subscriptionId: '7' } });
    expect(await kit.provisioner.removeEventSubscription({ host: HOST, subscriptionId: '7' })).toEqual({ kind: 'done', value: undefined });
  });

  it('sends no HttpHeaders when there are none', async () => {
    const kit = await startKit();
    kit.ironic.post(PASSTHRU, { Destination: subscription.destination, Context: '' }).query({ method: 'create_subscription' }).reply(200, { Id: '1' });
    expect(await kit.provisioner.addEventSubscription({ host: HOST, subscription: { ...subscription, context: '', httpHeaders: [] } }))
      .toEqual({ kind: 'done', value: { subscriptionId: '1' } });
  });

  it('records a refused subscription without the header values Ironic quotes', async () => {
    const kit = await startKit();
    const quoted = `Redfish exception occurred. Error: Failed to create subscription on node x. Subscription payload: {'Destination': 'https://127.0.0.1:9000/events', 'HttpHeaders': [{'Authorization': '${TOKEN}'}]}. Error: HTTP POST returned 400`;
    kit.ironic.post(PASSTHRU).query({ method: 'create_subscription' }).reply(500, ironicError(quoted));
    const result = await kit.provisioner.addEventSubscription({ host: HOST, subscription });
    expect(result).toEqual({
      kind: 'failed',
      message: 'failed to create a subscription: Redfish exception occurred. Error: Failed to create subscription on node x. Subscription payload: <redacted>. Error: HTTP POST returned 400',
    });
  });

  it('waits for registration when the node is missing, and retries a busy Ironic without quoting the request', async () => {
    const kit = await startKit();
    kit.ironic.post(PASSTHRU).query({ method: 'create_subscription' }).reply(404, ironicError('Node not found'));
    await expect(kit.provisioner.addEventSubscription({ host: HOST, subscription })).rejects.toBeInstanceOf(NeedsRegistrationError);
    kit.ironic.post(PASSTHRU).query({ method: 'create_subscription' }).reply(409, ironicError(`Node is in a transitional state, payload ${TOKEN}`));
    const error = await kit.provisioner.addEventSubscription({ host: HOST, subscription }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransientProvisionerError);
    expect((error as Error).message).not.toContain(TOKEN);
    expect((error as Error).cause).toBeUndefined();
  });

  it('counts a subscription or node already gone as removed, and records other refusals', async () => {
    const kit = await startKit();
    kit.ironic.delete(PASSTHRU).query({ method: 'delete_subscription' }).reply(404, ironicError('Redfish delete_subscription failed for subscription 9'));
    kit.ironic.delete(PASSTHRU).query({ method: 'delete_subscription' }).reply(400, ironicError("id can't be None"));
    expect(await kit.provisioner.removeEventSubscription({ host: HOST, subscriptionId: '9' })).toEqual({ kind: 'done', value: undefined });
    expect(await kit.provisioner.removeEventSubscription({ host: HOST, subscriptionId: '9' })).toEqual({ kind: 'failed', message: "failed to delete a subscription: id can't be None" });
  });

  it('redacts every header value, longest first', () => {
    expect(withoutHeaderValues('a=abc b=ab', [{ A: 'ab' }, { B: 'abc' }])).toBe('a=<redacted> b=<redacted>');
    expect(withoutHeaderValues('nothing', [{ A: '' }])).toBe('nothing');
  });
});
