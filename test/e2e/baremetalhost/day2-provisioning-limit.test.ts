import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { inState, tearDownHostTest, type Host } from './hosts.ts';

// PROVISIONING_LIMIT=2 with five hosts on emulated servers 44–48, created at once with an image,
// then all deprovisioned at once. Ironic and the hosts are sampled every half second through
// inspection, provisioning and deprovisioning: never more than two at work.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const SERVERS = [44, 45, 46, 47, 48];
const LIMIT = 2;
/** Ironic states BMO counts against PROVISIONING_LIMIT. */
const IRONIC_BUSY = new Set(['cleaning', 'clean wait', 'inspecting', 'inspect wait', 'deploying', 'wait call-back', 'deleting']);
const LIMITED_STATES = new Set(['inspecting', 'provisioning', 'deprovisioning']);

let namespace = '';
let operator: OperatorProcess | undefined;
const names = SERVERS.map((index) => `limited-${index}`);

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-day2-limit');
  operator = startOperatorProcess({ env, namespace, label: 'day2-limit', extraEnv: { PROVISIONING_LIMIT: String(LIMIT) } });
}, minutes(2));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
  kubectl.dispose();
}, minutes(5));

interface Sampled {
  mostBusyInIronic: string[];
  mostInLimitedStates: string[];
  delayed: Set<string>;
  errors: string[];
}

/** Samples Ironic and the hosts until every host satisfies `done`; records the most ever at work. */
async function sampleUntil(done: (host: Host) => boolean, what: string): Promise<Sampled> {
  const sampled: Sampled = { mostBusyInIronic: [], mostInLimitedStates: [], delayed: new Set(), errors: [] };
  await waitFor(async () => {
    const { nodes } = await ironic.request<{ nodes: { name: string | null; provision_state: string }[] }>('GET', '/v1/nodes?fields=name,provision_state');
    const busy = nodes.filter((node) => node.name?.startsWith(`${namespace}~`) && IRONIC_BUSY.has(node.provision_state))
      .map((node) => `${node.name}:${node.provision_state}`);
    if (busy.length > sampled.mostBusyInIronic.length) sampled.mostBusyInIronic = busy;
    const hosts = (await kubectl.json<{ items: Host[] }>(['get', 'bmh', '-n', namespace])).items;
    const limited = hosts.filter((host) => LIMITED_STATES.has(host.status?.provisioning?.state ?? '') && host.status?.operationalStatus !== 'delayed')
      .map((host) => `${host.metadata.name}:${host.status?.provisioning?.state}`);
    if (limited.length > sampled.mostInLimitedStates.length) sampled.mostInLimitedStates = limited;
    for (const host of hosts) {
      if (host.status?.operationalStatus === 'delayed') sampled.delayed.add(host.metadata.name);
      if (host.status?.errorType) sampled.errors.push(`${host.metadata.name}: ${host.status.errorType}: ${host.status.errorMessage}`);
    }
    return hosts.length === names.length && hosts.every(done) ? true : undefined;
  }, { timeoutMs: minutes(12), intervalMs: 500, what });
  return sampled;
}

describe('PROVISIONING_LIMIT on real Ironic', () => {
  it('keeps at most 2 of 5 hosts at work through inspection, provisioning and deprovisioning; the others wait as delayed, and all finish', async () => {
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'List', items: SERVERS.flatMap((index, position) => {
        const system = env.systems[index]!;
        const name = names[position]!;
        return [
          { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
          {
            apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace },
            spec: {
              online: true,
              bootMACAddress: system.macs[0],
              bmc: { address: system.redfishAddress, credentialsName: `${name}-bmc` },
              automatedCleaningMode: 'disabled',
              image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' },
            },
          },
        ];
      }),
    }));
    const up = await sampleUntil(inState('provisioned'), 'all five hosts to be provisioned');

    for (const name of names) {
      await kubectl.ok(['patch', 'bmh', name, '-n', namespace, '--type=json', '-p', JSON.stringify([{ op: 'remove', path: '/spec/image' }])]);
    }
    const down = await sampleUntil(inState('available'), 'all five hosts to be deprovisioned');

    for (const sampled of [up, down]) {
      expect(sampled.errors).toEqual([]);
      expect(sampled.mostBusyInIronic.length).toBeLessThanOrEqual(LIMIT);
      expect(sampled.mostInLimitedStates.length).toBeLessThanOrEqual(LIMIT);
    }
    // The limit was reached (two really ran side by side) and held others back.
    expect(up.mostInLimitedStates).toHaveLength(LIMIT);
    expect(up.delayed.size).toBeGreaterThan(0);
  }, minutes(25));
});
