import { describe, expect, it } from '@jest/globals';
import type { Clock, KubeObject, ResourceClient } from '../../../operator/runtime/index.ts';
import { KubeStatusError } from '../../../operator/runtime/index.ts';
import { metal3MachineSchema } from '../../api/index.ts';
import type { Metal3Data, Metal3DataClaim } from '../../api/index.ts';
import { dissociateMachineData, machineData } from './machine-data.ts';
import type { DataClients } from './machine-data.ts';
import { MachineStatus } from './machine-status.ts';

const clock: Clock = { now: () => Date.parse('2026-01-02T03:04:05Z'), setTimer: () => ({ cancel: () => {} }) };
const signal = new AbortController().signal;
const notFound = (name: string) => new KubeStatusError({ status: 'Failure', reason: 'NotFound', code: 404, message: `${name} not found` });

/** Objects by name, with the few calls machine-data makes (json patches only remove finalizers). */
function store<T extends KubeObject>(objects: T[] = []) {
  const byName = new Map(objects.map((object) => [object.metadata.name ?? '', structuredClone(object)]));
  const client = {
    get: async ({ name }: { name: string }) => {
      const found = byName.get(name);
      if (!found) throw notFound(name);
      return structuredClone(found);
    },
    create: async (object: T) => {
      byName.set(object.metadata.name ?? '', { ...structuredClone(object), metadata: { ...object.metadata, uid: 'new-uid', resourceVersion: '1' } });
      return structuredClone(byName.get(object.metadata.name ?? '')!);
    },
    delete: async ({ name }: { name: string }) => {
      byName.delete(name);
    },
    patch: async ({ name }: { name: string }, ops: { op: string; path: string }[]) => {
      const found = byName.get(name)!;
      for (const op of ops.filter((o) => o.op === 'remove')) {
        const index = Number(op.path.split('/').at(-1));
        found.metadata.finalizers = found.metadata.finalizers?.filter((_, i) => i !== index);
      }
      return structuredClone(found);
    },
  };
  return { client: client as unknown as ResourceClient<T>, byName };
}

const m3m = (spec: Record<string, unknown>) => metal3MachineSchema.parse({
  metadata: { name: 'worker-0', namespace: 'ns', uid: 'm3m-uid', generation: 1, labels: { 'cluster.x-k8s.io/cluster-name': 'c' } }, spec,
});
const data = (status: Metal3Data['status']): Metal3Data => ({
  metadata: { name: 'tpl-0', namespace: 'ns' }, spec: { index: 0, metaData: { name: 'worker-0-metadata' }, networkData: { name: 'worker-0-networkdata' } },
  ...(status ? { status } : {}),
});
const rendered: Metal3DataClaim = { metadata: { name: 'worker-0', namespace: 'ns', uid: 'claim-uid', ownerReferences: [{ apiVersion: 'x', kind: 'Metal3Machine', name: 'worker-0', uid: 'm3m-uid' }],
  finalizers: ['metal3machine.infrastructure.cluster.x-k8s.io', 'metal3dataclaim.infrastructure.cluster.x-k8s.io'] },
spec: { template: { name: 'tpl' } }, status: { renderedData: { name: 'tpl-0' } } };

function clients(options: { claims?: Metal3DataClaim[]; datas?: Metal3Data[]; templates?: KubeObject[] } = {}) {
  const claims = store(options.claims);
  const datas = store(options.datas);
  const templates = store(options.templates);
  const deps: DataClients = { dataClaims: claims.client, datas: datas.client, dataTemplates: templates.client };
  return { deps, claims };
}
const condition = (status: MachineStatus) => status.next.conditions?.find((c) => c.type === 'Metal3DataReady');

describe('machineData', () => {
  it('without a data template uses the Secrets of the spec as they are', async () => {
    const machine = m3m({ networkData: { name: 'own-network' } });
    const status = new MachineStatus(machine, clock);
    expect(await machineData(clients().deps, { m3m: machine, status, signal })).toEqual({ kind: 'ready', networkData: { name: 'own-network', namespace: 'ns' } });
    expect(status.next.networkData).toEqual({ name: 'own-network', namespace: 'ns' });
    expect(condition(status)).toMatchObject({ status: 'True', reason: 'SecretsSetExternally' });
  });

  it('makes a claim named like the machine, owned by it and holding its finalizer, and waits for it', async () => {
    const machine = m3m({ dataTemplate: { name: 'tpl' } });
    const status = new MachineStatus(machine, clock);
    const { deps, claims } = clients();
    expect(await machineData(deps, { m3m: machine, status, signal })).toMatchObject({ kind: 'waiting' });
    expect(claims.byName.get('worker-0')).toMatchObject({
      metadata: { finalizers: ['metal3machine.infrastructure.cluster.x-k8s.io'], labels: { 'cluster.x-k8s.io/cluster-name': 'c' },
        ownerReferences: [{ kind: 'Metal3Machine', name: 'worker-0', uid: 'm3m-uid', controller: true }] },
      spec: { template: { name: 'tpl', namespace: 'ns' } },
    });
    expect(condition(status)).toMatchObject({ status: 'False', reason: 'WaitingForMetal3Data' });
  });

  it('relays why the Metal3Data is not ready', async () => {
    const machine = m3m({ dataTemplate: { name: 'tpl' } });
    const status = new MachineStatus(machine, clock);
    const outcome = await machineData(clients({ claims: [rendered], datas: [data({ ready: false, errorMessage: 'no NIC named eth9' })] }).deps, { m3m: machine, status, signal });
    expect(outcome).toEqual({ kind: 'waiting', why: 'Metal3Data tpl-0 is not ready: no NIC named eth9' });
    expect(status.next.renderedData).toEqual({ name: 'tpl-0', namespace: 'ns' });
    expect(status.next.metaData).toBeUndefined();
  });

  it('uses the rendered Secrets once ready; a Secret given in the spec wins over its rendered twin', async () => {
    const machine = m3m({ dataTemplate: { name: 'tpl' }, metaData: { name: 'own-meta' } });
    const status = new MachineStatus(machine, clock);
    const outcome = await machineData(clients({ claims: [rendered], datas: [data({ ready: true })] }).deps, { m3m: machine, status, signal });
    expect(outcome).toEqual({ kind: 'ready', metaData: { name: 'own-meta', namespace: 'ns' }, networkData: { name: 'worker-0-networkdata', namespace: 'ns' } });
    expect(condition(status)).toMatchObject({ status: 'True', reason: 'Metal3DataSecretsReady' });
  });
});

describe('dissociateMachineData', () => {
  it('drops its finalizer from the claim and deletes it; the template finalizer stays for the template controller', async () => {
    const machine = m3m({ dataTemplate: { name: 'tpl' } });
    const status = new MachineStatus({ ...machine, status: { renderedData: { name: 'tpl-0' }, metaData: { name: 'worker-0-metadata' } } }, clock);
    const { deps, claims } = clients({ claims: [rendered], templates: [{ metadata: { name: 'tpl', namespace: 'ns' } }] });
    claims.client.delete = async () => {};
    await dissociateMachineData(deps, { m3m: machine, status, signal });
    expect(claims.byName.get('worker-0')?.metadata.finalizers).toEqual(['metal3dataclaim.infrastructure.cluster.x-k8s.io']);
    expect(status.next.renderedData).toBeUndefined();
    expect(status.next.metaData).toBeUndefined();
  });

  it('also drops the template finalizer when the template is gone, so the claim never hangs', async () => {
    const machine = m3m({ dataTemplate: { name: 'tpl' } });
    const { deps, claims } = clients({ claims: [rendered] });
    let finalizersAtDelete: string[] | undefined;
    claims.client.delete = async ({ name }) => {
      finalizersAtDelete = claims.byName.get(name)?.metadata.finalizers;
    };
    await dissociateMachineData(deps, { m3m: machine, status: new MachineStatus(machine, clock), signal });
    expect(finalizersAtDelete).toEqual([]);
  });
});
