import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { byFaultScale } from '../../support/fault-scale.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { deleteHostNamespace } from '../baremetalhost/hosts.ts';

// Many hosts naming one BMC credentials Secret, as a lab with one BMC password does: every host
// claims it (an owner reference each, one label, one finalizer) although all claims race on the
// same object. The fixture provisioner plays the hardware (no emulated server is used): 50
// hosts in CI, 1,000 with METAL3_TS_FAULTS_SCALE=large.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const minutes = (n: number) => n * 60_000;
const HOSTS = byFaultScale({ small: 50, large: 1_000 });
const SECRET = 'shared-bmc';

let namespace = '';
let operator: OperatorProcess | undefined;

interface Secret { metadata: { labels?: Record<string, string>; finalizers?: string[]; ownerReferences?: { uid: string; kind: string }[] } }
interface HostSummary { metadata: { name: string; uid: string }; status?: { provisioning?: { state?: string }; errorType?: string } }

const mac = (index: number) => `02:fa:00:00:${(index >> 8).toString(16).padStart(2, '0')}:${(index & 0xff).toString(16).padStart(2, '0')}`;
const hosts = async () => (await kubectl.json<{ items: HostSummary[] }>(['get', 'bmh', '-n', namespace])).items;

beforeAll(async () => {
  namespace = await createUniqueNamespace(kubectl, 'e2e-faults-shared-secret');
  operator = startOperatorProcess({ env, namespace, label: `faults-shared-${namespace}`, // The Secret is what is under test, not BMO's limit of 20 hosts inspecting at once.
    extraEnv: { PROVISIONER: 'fixture', LOG_LEVEL: 'info', PROVISIONING_LIMIT: String(HOSTS) } });
  const items = [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: SECRET, namespace }, stringData: env.bmcCredentials! },
    ...Array.from({ length: HOSTS }, (_, index) => ({
      apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: `shared-${index}`, namespace },
      spec: { online: false, bootMACAddress: mac(index), bmc: { address: `redfish+http://127.0.0.1:9/redfish/v1/Systems/shared-${index}`, credentialsName: SECRET } },
    })),
  ];
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
}, minutes(3));

afterAll(async () => {
  await operator?.stop();
  if (namespace) await deleteHostNamespace(kubectl, namespace);
}, minutes(5));

describe(`${HOSTS} hosts sharing one BMC credentials Secret`, () => {
  it('all register and become available; the Secret is claimed once per host', async () => {
    let last = '';
    const ready = await waitFor(async () => {
      const current = await hosts();
      const states = new Map<string, number>();
      for (const host of current) {
        const state = host.status?.errorType ? `error ${host.status.errorType}` : host.status?.provisioning?.state ?? 'new';
        states.set(state, (states.get(state) ?? 0) + 1);
      }
      last = JSON.stringify([...states]);
      return current.length === HOSTS && states.get('available') === HOSTS ? current : undefined;
    }, { timeoutMs: minutes(byFaultScale({ small: 4, large: 25 })), intervalMs: 3_000, what: `${HOSTS} hosts available` })
      .catch((error: Error) => { throw new Error(`${error.message}; states ${last}`, { cause: error }); });
    const secret = await kubectl.json<Secret>(['get', 'secret', SECRET, '-n', namespace]);
    expect(secret.metadata.labels?.['environment.metal3.io']).toBe('baremetal');
    expect(secret.metadata.finalizers).toEqual(['baremetalhost.metal3.io/secret']);
    const owners = (secret.metadata.ownerReferences ?? []).filter((ref) => ref.kind === 'BareMetalHost').map((ref) => ref.uid).sort();
    expect(owners).toEqual(ready.map((host) => host.metadata.uid).sort());
  }, minutes(26));

  it('all are deleted, and the Secret is let go', async () => {
    await kubectl.ok(['delete', 'bmh', '--all', '-n', namespace, '--wait=false']);
    let left = HOSTS;
    await waitFor(async () => {
      left = (await hosts()).length;
      return left === 0 ? true : undefined;
    }, { timeoutMs: minutes(byFaultScale({ small: 4, large: 20 })), intervalMs: 3_000, what: 'every host deleted' })
      .catch((error: Error) => { throw new Error(`${error.message}; ${left} left`, { cause: error }); });
    const secret = await kubectl.json<Secret>(['get', 'secret', SECRET, '-n', namespace]);
    expect(secret.metadata.finalizers ?? []).not.toContain('baremetalhost.metal3.io/secret');
  }, minutes(21));
});
