import { describe, expect, it } from '@jest/globals';
import type { BareMetalHost } from '../../operator/api/index.ts';
import { bareMetalHostSchema } from '../../operator/api/index.ts';
import { chooseHost, consumedBy, describeNoHost } from './host-choice.ts';
import type { Claimant, HostChoice } from './host-choice.ts';
import { compileLabelSelector } from '../../operator/runtime/index.ts';

const NS = 'ns';
const FD = 'infrastructure.cluster.x-k8s.io/failure-domain';
const REUSE = 'infrastructure.cluster.x-k8s.io/node-reuse';
const m3mRef = (name: string, extra: Record<string, string> = {}) =>
  ({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3Machine', name, namespace: NS, ...extra });
const clusterBooking = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'c1', namespace: NS };

function host(name: string, options: {
  state?: string; labels?: Record<string, string>; annotations?: Record<string, string>; consumerRef?: Record<string, string>;
  errorMessage?: string; deleting?: boolean;
} = {}): BareMetalHost {
  return bareMetalHostSchema.parse({
    metadata: { name, namespace: NS, labels: options.labels ?? {}, annotations: options.annotations ?? {},
      ...(options.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['x'] } : {}) },
    spec: { online: false, ...(options.consumerRef ? { consumerRef: options.consumerRef } : {}) },
    status: { provisioning: { state: options.state ?? 'available' }, ...(options.errorMessage ? { errorMessage: options.errorMessage } : {}) },
  });
}

const me: Claimant = { namespace: NS, name: 'm1' };
/** random() values that pick the first, middle or last item of a list. */
const first = () => 0;
const last = () => 0.999999;
const names = (choice: HostChoice) => (choice.kind === 'none' ? undefined : choice.host.metadata.name);

describe('consumedBy', () => {
  it('matches kind, API group (any version), name and namespace', () => {
    expect(consumedBy(host('h', { consumerRef: m3mRef('m1') }), me)).toBe(true);
    expect(consumedBy(host('h', { consumerRef: m3mRef('m1', { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1' }) }), me)).toBe(true);
    expect(consumedBy(host('h', { consumerRef: m3mRef('m1', { apiVersion: 'other.io/v1' }) }), me)).toBe(false);
    expect(consumedBy(host('h', { consumerRef: m3mRef('m1', { kind: 'Machine' }) }), me)).toBe(false);
    expect(consumedBy(host('h', { consumerRef: m3mRef('m2') }), me)).toBe(false);
    expect(consumedBy(host('h', { consumerRef: m3mRef('m1', { namespace: 'other' }) }), me)).toBe(false);
    expect(consumedBy(host('h'), me)).toBe(false);
  });

  it('defaults the consumerRef namespace to the host namespace', () => {
    const { namespace: _namespace, ...ref } = m3mRef('m1');
    expect(consumedBy(host('h', { consumerRef: ref }), me)).toBe(true);
  });
});

describe('chooseHost', () => {
  it('returns the host this machine already consumes, whatever its state and even when others are free', () => {
    const hosts = [host('free-1'), host('mine', { state: 'provisioning', consumerRef: m3mRef('m1'), annotations: { 'baremetalhost.metal3.io/paused': 'x' } }), host('free-2')];
    expect(chooseHost(hosts, me, first)).toEqual({ kind: 'chosen', host: hosts[1], via: 'existing-claim' });
  });

  it.each([
    ['consumed', host('x', { consumerRef: m3mRef('other') })],
    ['being deleted', host('x', { deleting: true })],
    ['in error', host('x', { errorMessage: 'BMC unreachable' })],
    ['paused', host('x', { annotations: { 'baremetalhost.metal3.io/paused': '' } })],
    ['unhealthy', host('x', { annotations: { 'capm3.metal3.io/unhealthy': '' } })],
    ['unhealthy', host('x', { annotations: { 'capi.metal3.io/unhealthy': 'true' } })],
    ['kept for reuse by another owner', host('x', { labels: { [REUSE]: 'md-other' } })],
    ['kept for reuse by another owner', host('x', { labels: { [REUSE]: 'md-other' }, consumerRef: clusterBooking })],
  ])('never takes a host that is %s', (reason, excluded) => {
    expect(chooseHost([excluded], { ...me, reuseLabelValue: 'md-mine' }, first)).toEqual({ kind: 'none', considered: 1, reasons: { [reason]: 1 } });
    const free = host('free');
    for (const random of [first, last]) expect(names(chooseHost([excluded, free], me, random))).toBe('free');
  });

  it('takes only available or ready hosts and counts the others by state', () => {
    const states = ['', 'unmanaged', 'registering', 'match profile', 'preparing', 'inspecting', 'provisioning', 'provisioned',
      'externally provisioned', 'deprovisioning', 'powering off before delete', 'deleting'];
    const busy = states.map((state, i) => host(`busy-${i}`, { state }));
    const choice = chooseHost(busy, me, first);
    expect(choice.kind).toBe('none');
    expect(choice.kind === 'none' && choice.reasons).toMatchObject({ 'not available (no state yet)': 1, 'not available (inspecting)': 1, 'not available (provisioned)': 1 });
    expect(choice.kind === 'none' && Object.values(choice.reasons).reduce((a, b) => a + b, 0)).toBe(states.length);
    for (const state of ['available', 'ready']) {
      expect(chooseHost([...busy, host('ok', { state })], me, last)).toMatchObject({ kind: 'chosen', via: 'any', host: { metadata: { name: 'ok' } } });
    }
  });

  it('picks uniformly at random among equals, using the injected random()', () => {
    const hosts = ['a', 'b', 'c', 'd'].map((name) => host(name));
    expect([0, 0.25, 0.5, 0.75, 0.9999].map((value) => names(chooseHost(hosts, me, () => value)))).toEqual(['a', 'b', 'c', 'd', 'd']);
    // random() may return values as close to 1 as it likes; never out of range.
    expect(names(chooseHost(hosts, me, () => 1))).toBe('d');
  });

  it('prefers hosts in the machine failure domain, randomly among them, and falls back to any free host', () => {
    const hosts = [host('a1', { labels: { [FD]: 'fd-a' } }), host('b1', { labels: { [FD]: 'fd-b' } }), host('a2', { labels: { [FD]: 'fd-a' } }), host('none')];
    const inA = { ...me, failureDomain: 'fd-a' };
    expect(chooseHost(hosts, inA, first)).toMatchObject({ kind: 'chosen', via: 'failure-domain', host: { metadata: { name: 'a1' } } });
    expect(chooseHost(hosts, inA, last)).toMatchObject({ kind: 'chosen', via: 'failure-domain', host: { metadata: { name: 'a2' } } });
    const busyInA = [host('a1', { labels: { [FD]: 'fd-a' }, state: 'provisioned' }), host('b1', { labels: { [FD]: 'fd-b' } }), host('none')];
    expect(chooseHost(busyInA, inA, last)).toMatchObject({ kind: 'chosen', via: 'any', host: { metadata: { name: 'none' } } });
    expect(chooseHost(busyInA, { ...me, failureDomain: 'fd-c' }, first)).toMatchObject({ kind: 'chosen', via: 'any', host: { metadata: { name: 'b1' } } });
  });

  it('prefers a host kept for its own owner over free and failure-domain hosts', () => {
    const claimant = { ...me, reuseLabelValue: 'md-workers', failureDomain: 'fd-a' };
    const kept = host('kept', { labels: { [REUSE]: 'md-workers' } });
    const hosts = [host('free'), host('in-fd', { labels: { [FD]: 'fd-a' } }), kept, host('free-2')];
    for (const random of [first, last]) expect(chooseHost(hosts, claimant, random)).toEqual({ kind: 'chosen', host: kept, via: 'node-reuse' });
  });

  it('takes a host booked for its owner with the consumerRef on the Cluster (CAPM3 1.14 booking)', () => {
    const claimant = { ...me, reuseLabelValue: 'md-workers' };
    const booked = host('booked', { labels: { [REUSE]: 'md-workers' }, consumerRef: clusterBooking });
    for (const random of [first, last]) {
      expect(chooseHost([host('free'), booked, host('free-2')], claimant, random)).toEqual({ kind: 'chosen', host: booked, via: 'node-reuse' });
    }
    // Booked for us but consumed by some machine: not ours any more.
    const taken = host('taken', { labels: { [REUSE]: 'md-workers' }, consumerRef: m3mRef('other') });
    expect(chooseHost([taken], claimant, first)).toEqual({ kind: 'none', considered: 1, reasons: { consumed: 1 } });
    // A machine without a reusing owner never takes a booked host.
    expect(chooseHost([booked], me, first)).toEqual({ kind: 'none', considered: 1, reasons: { 'kept for reuse by another owner': 1 } });
  });

  it('waits for its reused host while it is still deprovisioning instead of taking another', () => {
    const claimant = { ...me, reuseLabelValue: 'cp-kcp' };
    const kept = host('kept', { state: 'deprovisioning', labels: { [REUSE]: 'cp-kcp' } });
    expect(chooseHost([host('free'), kept], claimant, first)).toEqual({ kind: 'wait-for-reused', host: kept });
    const keptAndBooked = host('kept', { state: 'deprovisioning', labels: { [REUSE]: 'cp-kcp' }, consumerRef: clusterBooking });
    expect(chooseHost([host('free'), keptAndBooked], claimant, first)).toEqual({ kind: 'wait-for-reused', host: keptAndBooked });
  });

  it('reports no host with the count of each reason', () => {
    const hosts = [host('a', { consumerRef: m3mRef('x') }), host('b', { consumerRef: m3mRef('y') }), host('c', { state: 'provisioning' })];
    expect(chooseHost(hosts, me, first)).toEqual({ kind: 'none', considered: 3, reasons: { consumed: 2, 'not available (provisioning)': 1 } });
    expect(chooseHost([], me, first)).toEqual({ kind: 'none', considered: 0, reasons: {} });
  });
});

describe('describeNoHost', () => {
  it('says which selector matched nothing', () => {
    expect(describeNoHost({ kind: 'none', considered: 0, reasons: {} }, compileLabelSelector({ matchLabels: { pool: 'late' } })))
      .toBe('no BareMetalHost in the namespace matches the hostSelector (pool=late)');
  });

  it('lists why each matching host was passed over', () => {
    expect(describeNoHost({ kind: 'none', considered: 3, reasons: { consumed: 2, 'not available (provisioning)': 1 } }, compileLabelSelector(undefined)))
      .toBe('no free BareMetalHost: 3 match the hostSelector ((any host)) but 2 consumed, 1 not available (provisioning)');
  });
});
