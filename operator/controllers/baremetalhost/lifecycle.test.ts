import { describe, expect, it } from '@jest/globals';
import { FixtureProvisioner } from '../../provisioner/fixture/index.ts';
import type { ProvisioningState } from '../../api/provisioning-state.ts';
import type { Action } from './action.ts';
import type { Host } from './host.ts';
import { reconcileState } from './state-machine.ts';
import type { StateContext } from './state-context.ts';
import { contextFor, hostFor } from './testing/hosts.ts';

const image = { url: 'http://127.0.0.1/image.raw', checksum: 'abc', checksumType: 'sha256' as const };

/** Runs passes like the reconciler would (without Kubernetes) until `state` or a pass limit. */
async function runUntil(host: Host, context: StateContext, state: ProvisioningState, limit = 20): Promise<Action[]> {
  const actions: Action[] = [];
  for (let pass = 0; pass < limit && host.status.provisioning.state !== state; pass++) actions.push(await reconcileState(host, context));
  expect(host.status.provisioning.state).toBe(state);
  return actions;
}

describe('a host through its life, on the shared fixture provisioner', () => {
  it('registers, inspects, provisions, deprovisions and is deleted', async () => {
    const fixture = new FixtureProvisioner();
    const host = hostFor({ status: { lastUpdated: '2026-05-01T11:00:00Z' } });
    const context = contextFor(fixture);
    await runUntil(host, context, 'available');
    expect(host.status.hardware?.cpu?.arch).toBe('x86_64');

    host.spec.image = image;
    await runUntil(host, context, 'provisioned');
    expect(host.status.provisioning.image).toEqual(image);
    expect(fixture.host({ namespace: 'test', name: 'host-0' }).deployed).toBe(true);

    delete host.spec.image;
    await runUntil(host, context, 'available');
    expect(host.status.provisioning.image).toBeUndefined();

    host.metadata.deletionTimestamp = '2026-05-01T11:59:00Z';
    await runUntil(host, context, 'deleting');
    let action: Action | undefined;
    for (let pass = 0; pass < 5 && action?.kind !== 'deleted'; pass++) action = await reconcileState(host, context);
    expect(action).toEqual({ kind: 'deleted' });
    expect(host.status.errorType).toBeUndefined();
  });

  it('counts failed deploys against the image and stops at the cap', async () => {
    const fixture = new FixtureProvisioner();
    const host = hostFor({ status: { lastUpdated: '2026-05-01T11:00:00Z' } });
    const context = contextFor(fixture, { settings: { maxProvisioningRetries: 2, deletionTimeoutMs: 0 } });
    await runUntil(host, context, 'available');
    fixture.host({ namespace: 'test', name: 'host-0' }).failProvisioning = 'disk on fire';
    host.spec.image = image;
    await runUntil(host, context, 'provisioning');
    for (let attempt = 1; attempt <= 2; attempt++) {
      await runUntil(host, context, 'deprovisioning');
      expect(host.status.provisioningFailCount).toBe(attempt);
      await runUntil(host, context, 'available');
      // The recorded error is cleared by the next attempt; here the backoff would apply.
      if (attempt < 2) await runUntil(host, context, 'provisioning');
    }
    // Registration first restores the root device hints deprovisioning cleared, then the cap applies.
    let action: Action | undefined;
    for (let pass = 0; pass < 5 && action?.kind !== 'failed'; pass++) action = await reconcileState(host, context);
    expect(action).toMatchObject({ kind: 'failed', errorType: 'provisioning error', message: expect.stringContaining('retry limit (2) reached') });
    expect(host.status.provisioning.state).toBe('available');
  });
});
