import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { releaseNodesNamed } from '../../support/release-systems.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { deleteHostNamespace, inState, type Host } from './hosts.ts';

// PROVISIONING_LIMIT=2 with four hosts on emulated servers 12–15 created at once: Ironic is
// sampled while they inspect and provision, and never has more than two of them at work.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const SERVERS = [12, 13, 14, 15];
const LIMIT = 2;
/** Ironic states BMO counts against PROVISIONING_LIMIT. */
const BUSY = new Set(['cleaning', 'clean wait', 'inspecting', 'inspect wait', 'deploying', 'wait call-back', 'deleting']);

let namespace = '';
let operator: OperatorProcess;
const names = SERVERS.map((index) => `limited-${index}`);

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-day2-limit');
  operator = startOperatorProcess({ env, namespace, label: 'day2-limit', extraEnv: { PROVISIONING_LIMIT: String(LIMIT) } });
}, minutes(2));

afterAll(async () => {
  if (namespace) {
    await kubectl.run(['delete', 'bmh', '--all', '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await kubectl.run(['get', 'bmh', '-n', namespace, '-o', 'name'])).stdout.trim() ? undefined : true),
      { timeoutMs: minutes(3), what: 'hosts to be deleted' }).catch(() => undefined);
  }
  await operator?.stop();
  if (!namespace) return;
  await releaseNodesNamed(env, `${namespace}~`);
  await deleteHostNamespace(kubectl, namespace);
}, minutes(5));

describe('PROVISIONING_LIMIT on real Ironic', () => {
  it('keeps at most 2 of 4 hosts inspecting or provisioning at once; the others wait as delayed, and all finish', async () => {
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

    let mostBusy = 0;
    const busyAtOnce: string[][] = [];
    const delayed = new Set<string>();
    const errors: string[] = [];
    await waitFor(async () => {
      const { nodes } = await ironic.request<{ nodes: { name: string | null; provision_state: string }[] }>('GET', '/v1/nodes?fields=name,provision_state');
      const busy = nodes.filter((node) => node.name?.startsWith(`${namespace}~`) && BUSY.has(node.provision_state))
        .map((node) => `${node.name}:${node.provision_state}`);
      if (busy.length > mostBusy) {
        mostBusy = busy.length;
        busyAtOnce.push(busy);
      }
      const hosts = (await kubectl.json<{ items: Host[] }>(['get', 'bmh', '-n', namespace])).items;
      for (const host of hosts) {
        if (host.status?.operationalStatus === 'delayed') delayed.add(host.metadata.name);
        if (host.status?.errorType) errors.push(`${host.metadata.name}: ${host.status.errorType}: ${host.status.errorMessage}`);
      }
      return hosts.length === names.length && hosts.every(inState('provisioned')) ? true : undefined;
    }, { timeoutMs: minutes(14), intervalMs: 500, what: 'all four hosts to be provisioned' });

    expect(errors).toEqual([]);
    // The limit held, and was reached: two really did run side by side.
    expect({ mostBusy, busyAtOnce: busyAtOnce.at(-1) }).toMatchObject({ mostBusy: LIMIT });
    expect(delayed.size).toBeGreaterThan(0);
  }, minutes(15));
});
