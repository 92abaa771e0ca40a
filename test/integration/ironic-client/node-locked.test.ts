// Concurrent requests on one busy node. A Redfish power change holds Ironic's node lock for
// seconds (sushy-tools applies it 1-11 s late and the conductor waits for it); Ironic's own lock
// retries give up after ~2 s and answer 409 NodeLocked. The client must retry those and still
// hand back every outcome: success, or a typed error that is not a lock error.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { connectIronic, IronicConflictError, IronicError, IronicNotFoundError, REQUESTS_TOTAL } from '../../../ironic-client/index.ts';
import type { IronicClient, PowerTarget } from '../../../ironic-client/index.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import {
  deleteNodeQuietly,
  redfishNode,
  stackClientOptions,
  waitForPowerState,
  waitForProvisionState,
} from './support.ts';

const env = readStackEnv();
const runId = randomBytes(3).toString('hex');
// Emulated server 34 is this file's (see test/support/test-stack.ts).
const system = env.systems[34]!;

interface Outcome {
  what: string;
  error?: unknown;
}

async function settle(what: string, work: Promise<unknown>): Promise<Outcome> {
  try {
    await work;
    return { what };
  } catch (error) {
    return { what, error };
  }
}

const isLockError = (error: unknown) => error instanceof IronicConflictError && error.locked;

async function responsesWithCode(registry: Registry, code: string): Promise<number> {
  const metric = await registry.getSingleMetric(REQUESTS_TOTAL)?.get();
  return (metric?.values ?? []).filter((value) => value.labels.code === code).reduce((sum, value) => sum + value.value, 0);
}

describe('ironic-client against NodeLocked conflicts', () => {
  const registry = new Registry();
  let client: IronicClient;
  /** Never retries, so it shows what the patient client absorbed. */
  let impatient: IronicClient;
  const created: string[] = [];

  beforeAll(async () => {
    // Patient enough to outlast a power change of up to 11 s plus the conductor's own lock retries.
    client = await connectIronic(stackClientOptions(env, { metricsRegistry: registry, retry: { maxAttempts: 40, baseDelayMs: 250, maxDelayMs: 2000 } }));
    impatient = await connectIronic(stackClientOptions(env, { retry: { maxAttempts: 1 } }));
  });

  afterAll(async () => {
    for (const id of created) await deleteNodeQuietly(client, id);
    client.close();
    impatient.close();
  });

  it('retries 409 NodeLocked on concurrent power, update, maintenance and provision calls until each lands', async () => {
    const node = await client.nodes.create(redfishNode(env, system, `ironic-client-it~locked-${runId}`, { automated_clean: false }));
    created.push(node.uuid);
    await client.ports.create({ address: system.macs[0]!, node_uuid: node.uuid, pxe_enabled: true });
    await client.nodes.setProvisionState(node.uuid, { target: 'manage' });
    let power = (await waitForProvisionState(client, node.uuid, 'manageable')).power_state ?? 'power off';

    // Three rounds at least; more (up to eight) only if sushy happened to be quick every time.
    for (let round = 0; round < 3 || ((await responsesWithCode(registry, '409')) === 0 && round < 8); round++) {
      const target: PowerTarget = power === 'power on' ? 'power off' : 'power on';
      const [patient, impatientOutcome] = await Promise.all([
        Promise.all([
          settle('power', client.nodes.setPowerState(node.uuid, { target })),
          settle('same power again', client.nodes.setPowerState(node.uuid, { target })),
          settle('update', client.nodes.update(node.uuid, [{ op: 'add', path: '/extra/round', value: String(round) }])),
          settle('maintenance on and off', (async () => {
            await client.nodes.setMaintenance(node.uuid, { reason: `round ${round}` });
            await client.nodes.unsetMaintenance(node.uuid);
          })()),
        ]),
        // Its own field: Ironic applies a PATCH to the node it read before taking the lock, so two
        // concurrent patches of `extra` can lose one another's keys (last write wins).
        settle('impatient update', impatient.nodes.update(node.uuid, [{ op: 'add', path: '/description', value: `round ${round}` }])),
      ]);
      expect(patient.filter((outcome) => outcome.error !== undefined)).toEqual([]);
      if (impatientOutcome.error !== undefined) {
        expect(impatientOutcome.error).toBeInstanceOf(IronicConflictError);
        expect(impatientOutcome.error).toMatchObject({ locked: true, transient: true, attempts: 1, status: 409 });
      }

      power = (await waitForPowerState(client, node.uuid, target)).power_state ?? target;
      const after = await client.nodes.get(node.uuid, { fields: ['extra', 'maintenance', 'power_state', 'provision_state'] });
      expect(after).toMatchObject({ extra: { round: String(round) }, maintenance: false, power_state: target, provision_state: 'manageable' });
    }

    // Provide while a power change holds the lock. Power may then meet the node in cleaning,
    // which Ironic refuses with a plain 400: a clear answer, not a lock error.
    const target: PowerTarget = power === 'power on' ? 'power off' : 'power on';
    const [powerOutcome, ...rest] = await Promise.all([
      settle('power', client.nodes.setPowerState(node.uuid, { target })),
      settle('provide', client.nodes.setProvisionState(node.uuid, { target: 'provide' })),
      settle('update', client.nodes.update(node.uuid, [{ op: 'add', path: '/extra/provided', value: 'yes' }])),
    ]);
    expect(rest.filter((outcome) => outcome.error !== undefined)).toEqual([]);
    if (powerOutcome.error !== undefined) {
      expect(powerOutcome.error).toBeInstanceOf(IronicError);
      expect(isLockError(powerOutcome.error)).toBe(false);
      expect(powerOutcome.error).toMatchObject({ kind: 'bad_request', status: 400 });
    }
    await waitForProvisionState(client, node.uuid, 'available');
    const expectedPower = powerOutcome.error === undefined ? target : power;
    await waitForPowerState(client, node.uuid, expectedPower);
    expect(await client.nodes.get(node.uuid, { fields: ['extra', 'maintenance'] })).toMatchObject({
      extra: { provided: 'yes' },
      maintenance: false,
    });

    // The patient client saw 409s on the wire and absorbed every one of them.
    const conflicts = await responsesWithCode(registry, '409');
    expect(conflicts).toBeGreaterThan(0);

    if (expectedPower === 'power on') {
      await client.nodes.setPowerState(node.uuid, { target: 'power off' });
      await waitForPowerState(client, node.uuid, 'power off');
    }
    await client.nodes.delete(node.uuid);
    await expect(client.nodes.get(node.uuid)).rejects.toBeInstanceOf(IronicNotFoundError);
  }, 360_000);
});
