import type { KubeObject, ResourceClient } from '../../../operator/runtime/index.ts';
import { hasFinalizer, isAlreadyExists, isNotFound, removeFinalizer } from '../../../operator/runtime/index.ts';
import {
  INFRASTRUCTURE_API_VERSION, METAL3_DATA_CLAIM_FINALIZER, METAL3_MACHINE_FINALIZER, Metal3MachineResource, metal3DataClaimSchema, metal3DataSchema,
} from '../../api/index.ts';
import type { Metal3Data, Metal3DataClaim, Metal3Machine } from '../../api/index.ts';
import type { MachineStatus } from './machine-status.ts';

export interface DataClients {
  dataClaims: ResourceClient<Metal3DataClaim>;
  datas: ResourceClient<Metal3Data>;
  dataTemplates: ResourceClient<KubeObject>;
}

type SecretRef = { name: string; namespace: string };
export type MachineDataOutcome =
  | { kind: 'ready'; metaData?: SecretRef; networkData?: SecretRef }
  | { kind: 'waiting'; why: string };

/**
 * CAPM3's AssociateM3Metadata + WaitForM3Metadata: user Secrets in the spec are used as they are;
 * with a dataTemplate, a Metal3DataClaim named like the machine (owned by it, holding its
 * finalizer) is made, and the rendered Secrets are used once its Metal3Data is ready. A Secret
 * given in the spec wins over the rendered one of the same kind.
 */
export async function machineData(
  clients: DataClients,
  options: { m3m: Metal3Machine; status: MachineStatus; signal: AbortSignal },
): Promise<MachineDataOutcome> {
  const { m3m, status, signal } = options;
  const namespace = m3m.metadata.namespace ?? '';
  const own = (ref: { name?: string | undefined } | undefined) => (ref?.name ? { name: ref.name, namespace } : undefined);
  const fromSpec = { metaData: own(m3m.spec.metaData), networkData: own(m3m.spec.networkData) };
  const template = m3m.spec.dataTemplate?.name;
  if (!template) {
    status.next.metaData = fromSpec.metaData;
    status.next.networkData = fromSpec.networkData;
    // CAPM3's reason when no template renders the data: the user's Secrets are what there is.
    status.condition({ type: 'Metal3DataReady', status: 'True', reason: 'SecretsSetExternally', message: '' });
    return { kind: 'ready', ...definedRefs(fromSpec) };
  }
  const claim = await ensureClaim(clients, { m3m, template, signal });
  const renderedName = claim?.status?.renderedData?.name;
  if (!renderedName) {
    const why = claim?.status?.errorMessage ? `Metal3DataClaim ${m3m.metadata.name}: ${claim.status.errorMessage}` : `waiting for Metal3DataTemplate ${template} to give Metal3DataClaim ${m3m.metadata.name} its data`;
    status.condition({ type: 'Metal3DataReady', status: 'False', reason: 'WaitingForMetal3Data', message: why });
    return { kind: 'waiting', why };
  }
  status.next.renderedData = { name: renderedName, namespace };
  let data: Metal3Data;
  try {
    data = metal3DataSchema.parse(await clients.datas.get({ namespace, name: renderedName }, { signal }));
  } catch (error) {
    if (!isNotFound(error)) throw error;
    const why = `Metal3Data ${renderedName} does not exist yet`;
    status.condition({ type: 'Metal3DataReady', status: 'False', reason: 'WaitingForMetal3Data', message: why });
    return { kind: 'waiting', why };
  }
  if (data.status?.ready !== true) {
    const why = `Metal3Data ${renderedName} is not ready${data.status?.errorMessage ? `: ${data.status.errorMessage}` : ''}`;
    status.condition({ type: 'Metal3DataReady', status: 'False', reason: 'WaitingForMetal3Data', message: why });
    return { kind: 'waiting', why };
  }
  const refs = {
    metaData: fromSpec.metaData ?? own(data.spec.metaData),
    networkData: fromSpec.networkData ?? own(data.spec.networkData),
  };
  status.next.metaData = refs.metaData;
  status.next.networkData = refs.networkData;
  status.condition({ type: 'Metal3DataReady', status: 'True', reason: 'Metal3DataSecretsReady', message: `Metal3Data ${renderedName}` });
  return { kind: 'ready', ...definedRefs(refs) };
}

function definedRefs(refs: { metaData: SecretRef | undefined; networkData: SecretRef | undefined }): { metaData?: SecretRef; networkData?: SecretRef } {
  return { ...(refs.metaData ? { metaData: refs.metaData } : {}), ...(refs.networkData ? { networkData: refs.networkData } : {}) };
}

async function ensureClaim(clients: DataClients, options: { m3m: Metal3Machine; template: string; signal: AbortSignal }): Promise<Metal3DataClaim | undefined> {
  const { m3m, signal } = options;
  const name = { namespace: m3m.metadata.namespace ?? '', name: m3m.metadata.name ?? '' };
  try {
    return metal3DataClaimSchema.parse(await clients.dataClaims.get(name, { signal }));
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const claim: Metal3DataClaim = {
    apiVersion: INFRASTRUCTURE_API_VERSION,
    kind: 'Metal3DataClaim',
    metadata: {
      ...name,
      finalizers: [METAL3_MACHINE_FINALIZER],
      ...(m3m.metadata.labels ? { labels: m3m.metadata.labels } : {}),
      ownerReferences: [{ apiVersion: INFRASTRUCTURE_API_VERSION, kind: Metal3MachineResource.kind, name: name.name, uid: m3m.metadata.uid ?? '', controller: true }],
    },
    spec: { template: { name: options.template, namespace: m3m.spec.dataTemplate?.namespace ?? name.namespace } },
  };
  try {
    return metal3DataClaimSchema.parse(await clients.dataClaims.create(claim, { signal }));
  } catch (error) {
    if (isAlreadyExists(error)) return undefined;
    throw error;
  }
}

/**
 * CAPM3's DissociateM3Metadata: rendered Secrets leave the status and the claim is deleted (its
 * template controller then deletes the Metal3Data, which releases the addresses). A claim whose
 * template is gone has nobody left to drop the template's finalizer, so it is dropped here.
 */
export async function dissociateMachineData(clients: DataClients, options: { m3m: Metal3Machine; status: MachineStatus; signal: AbortSignal }): Promise<void> {
  const { m3m, status, signal } = options;
  if (!m3m.spec.metaData) status.next.metaData = undefined;
  if (!m3m.spec.networkData) status.next.networkData = undefined;
  status.next.renderedData = undefined;
  const name = { namespace: m3m.metadata.namespace ?? '', name: m3m.metadata.name ?? '' };
  let claim: Metal3DataClaim;
  try {
    claim = metal3DataClaimSchema.parse(await clients.dataClaims.get(name, { signal }));
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  if (!claim.metadata.ownerReferences?.some((owner) => owner.uid === m3m.metadata.uid)) return;
  claim = await removeFinalizer(clients.dataClaims, claim, METAL3_MACHINE_FINALIZER, { signal });
  if (hasFinalizer(claim, METAL3_DATA_CLAIM_FINALIZER) && !(await templateExists(clients, claim, signal))) {
    await removeFinalizer(clients.dataClaims, claim, METAL3_DATA_CLAIM_FINALIZER, { signal });
  }
  try {
    await clients.dataClaims.delete(name, { signal });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

async function templateExists(clients: DataClients, claim: Metal3DataClaim, signal: AbortSignal): Promise<boolean> {
  try {
    await clients.dataTemplates.get({ namespace: claim.spec.template.namespace ?? claim.metadata.namespace ?? '', name: claim.spec.template.name ?? '' }, { signal });
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}
