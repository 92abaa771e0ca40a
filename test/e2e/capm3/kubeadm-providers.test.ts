import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { issueEtcdCertificates } from '../../../hack/agent-simulator/etcd/etcd-certificates.ts';
import { clientTls, leaderId, listMembers, type EtcdClientTls } from '../../../hack/agent-simulator/etcd/etcd-client.ts';
import { osImageOf } from '../../../hack/agent-simulator/installed-os.ts';
import type { NodeRecord, SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { buildClusterApi, startClusterApiManager, workloadKubeconfigSecret, type ClusterApiManager } from '../../../hack/capi/index.ts';
import {
  CONTROL_PLANE_IMAGE, sampleClusterClassObjects, sampleTopologyClusterObjects, WORKER_IMAGE, WORKER_TOPOLOGY_NAME,
} from '../../../hack/dev/sample-clusterclass.ts';
import { hostObjects } from '../../../hack/dev/sample-hosts.ts';
import { run } from '../../../hack/stack/commands.ts';
import { kubernetesVersion } from '../../../hack/stack/kube.ts';
import { parseManifests, type Manifest } from '../../../hack/stack/kustomize.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { prepareProviderWebhook, type ProviderWebhook } from '../../../hack/stack/provider-webhook.ts';
import { tearDownClusterApiFile } from '../../support/cluster-api-teardown.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import {
  startInPlaceUpdateExtension, type InPlaceUpdateExtension, type UpdateMachineRequest, type UpdateProgress,
} from '../../support/in-place-update-extension.ts';
import { markNodeNotReady } from '../../support/node-conditions.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { scanForSecrets, type SecretValue } from '../../support/secret-scan.ts';
import { servingCertificate, tlsAddress } from '../../support/serving-certificate.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { metricValue } from '../baremetalhost/hosts.ts';

// CAPM3 with Cluster API's kubeadm control plane provider (KCP) and kubeadm bootstrap provider
// (CABPK), all three Cluster API v1.14.2's own managers (core, with its topology controller),
// over our provider, operator and real Ironic: first a ClusterClass cluster, as CAPM3's examples
// and e2e tests use one, scaled, rolled and upgraded to a new Kubernetes version through its
// topology; then, on the same hosts, the cluster `clusterctl generate cluster --flavor kubeadm`
// makes from our shipped template, scaled and its workers updated in place (Cluster API's
// InPlaceUpdates, through an update extension). The agent simulator's installed OS runs the kubeadm step of
// the user data it gets: `init` uploads kube-system/kubeadm-config to the workload API server
// (what KCP reads as "initialized") and applies kube-proxy; `join` is let in only with a
// bootstrap token CABPK made there. Last, that flavour's KubeadmControlPlane (stacked etcd)
// upgrades Kubernetes (rolling, then in place), scales, remediates and rolls with node reuse its
// control plane on the same hosts (the simulated control plane servers mirror kubeadm's static
// pods and run an etcd member each, which KCP checks through port-forwards to their kubelets).
// Servers 105-108 of the test stack are this file's own. It is the only file whose servers run
// kubeadm, so the kubeadm-config ConfigMap and kube-proxy in the shared workload cluster are this file's.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const workload = new Kubectl({ kubectl: env.kubectl, kubeconfig: env.workload.kubeconfig });
const minutes = (n: number) => n * 60_000;
jest.setTimeout(minutes(10));

const CLASS = 'metal3-class';
const CLUSTER = 'topology';
/** The stack's Kubernetes: the version the topology asks for. */
const KUBERNETES_VERSION = kubernetesVersion();
/** The release before it, which the ClusterClass cluster and the stacked-etcd control plane start at and are upgraded from. */
const UPGRADE_FROM = releaseBefore(KUBERNETES_VERSION);
const CONTROL_PLANE_HOST = { name: 'cc-cp', system: 105 };
const WORKER_HOSTS = [{ name: 'cc-worker-a', system: 106 }, { name: 'cc-worker-b', system: 107 }];
const ALL_HOSTS = [CONTROL_PLANE_HOST, ...WORKER_HOSTS];
/** Selected by no template until the control plane's node reuse test offers it to KCP: the free host a reused server must win over. */
const SPARE_HOST = { name: 'cc-spare', system: 108 };
const FILE_HOSTS = [...ALL_HOSTS, SPARE_HOST];
const REUSE_LABEL = 'infrastructure.cluster.x-k8s.io/node-reuse';
const WORKER_SELECTOR = `topology.cluster.x-k8s.io/deployment-name=${WORKER_TOPOLOGY_NAME}`;

let namespace = '';
/** When this file began: records from earlier runs on the same stack are older. */
const fileStart = new Date().toISOString();
let capi: ClusterApiManager | undefined;
let bootstrapProvider: ClusterApiManager | undefined;
let controlPlaneProvider: ClusterApiManager | undefined;
let operator: OperatorProcess | undefined;
let provider: ProviderProcess | undefined;
let providerWebhook: ProviderWebhook | undefined;

interface Condition { type: string; status: string; reason?: string; message?: string }
interface Machine {
  metadata: { name: string; uid: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { providerID?: string; version?: string; bootstrap: { configRef?: { kind: string }; dataSecretName?: string }; infrastructureRef: { name: string } };
  status?: { phase?: string; nodeRef?: { name: string } };
}
interface Host {
  metadata: { name: string };
  spec: { consumerRef?: { name: string } };
  status?: { provisioning?: { state?: string } };
}
interface WorkloadNode {
  metadata: { labels?: Record<string, string> };
  spec: { providerID?: string; taints?: { key: string; effect: string }[] };
  status: { nodeInfo: { kubeletVersion?: string; osImage?: string } };
}

/** The previous patch release (`v1.35.4` → `v1.35.3`), or the previous minor's first (`v1.35.0` → `v1.34.0`): an upgrade KCP accepts. */
function releaseBefore(version: string): string {
  const parts = /^v(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (parts === null) throw new Error(`the stack's Kubernetes version ${version} is not vMAJOR.MINOR.PATCH`);
  const [major, minor, patch] = parts.slice(1).map(Number) as [number, number, number];
  return patch > 0 ? `v${major}.${minor}.${patch - 1}` : `v${major}.${minor - 1}.0`;
}

const list = async <T>(kind: string, selector?: string) =>
  (await kubectl.json<{ items: T[] }>(['get', kind, '-n', namespace, ...(selector ? ['-l', selector] : [])])).items;
const controlPlaneMachines = () => list<Machine>('machines.cluster.x-k8s.io', 'cluster.x-k8s.io/control-plane');
const workerMachines = () => list<Machine>('machines.cluster.x-k8s.io', WORKER_SELECTOR);
const host = (name: string) => kubectl.json<Host>(['get', 'bmh', name, '-n', namespace]);
const hostOf = (machine: Machine) => machine.spec.providerID?.split('/')[3] ?? '';
const isFree = (current: Host) => current.status?.provisioning?.state === 'available' && !current.spec.consumerRef;
/** Resolves once the host is available and claimed by no Machine. */
const hostReleased = (name: string, options: { timeoutMs: number; what: string }) =>
  waitFor(async () => (isFree(await host(name)) ? true : undefined), { ...options, intervalMs: 1_000 });
const systemOf = (hostName: string) => FILE_HOSTS.find((h) => h.name === hostName)!.system;
const records = async (system: number) =>
  (await (await fetch(`${env.agentSimulatorUrl}/records/${env.systems[system]!.uuid}`)).json()) as SystemRecords;
/** The kubeadm steps a server ran since a moment (the simulator keeps every run's records). */
const kubeadmRuns = (nodes: NodeRecord[], since: string) => nodes
  .filter((record) => (record.kind === 'kubeadm-succeeded' || record.kind === 'kubeadm-failed') && record.at >= since)
  .map(({ at: _at, ...rest }) => rest);
/** Cluster API's annotation on a Machine (and its Metal3Machine) while an in-place update runs. */
const UPDATE_IN_PROGRESS = 'in-place-updates.internal.cluster.x-k8s.io/update-in-progress';
/** What the kubelet of a Machine's Node reports as its OS. */
const nodeOsImage = async (machine: Machine) =>
  (await workload.json<WorkloadNode>(['get', 'node', machine.status!.nodeRef!.name])).status.nodeInfo.osImage;

/**
 * The update extension's work on the hardware for UpdateMachine (CAPM3's runs commands over
 * SSH): starts the update of the server the Metal3Machine holds (the agent simulator's installed
 * OS takes the new image's content and the Machine's Kubernetes version), then says "in
 * progress" until that server's Node reports both.
 */
const startedUpdates = new Set<string>();
async function updateInstalledOs(request: UpdateMachineRequest): Promise<UpdateProgress> {
  const metal3Machine = request.infrastructureMachine as { metadata: { name: string; annotations?: Record<string, string> }; spec: { image: { url: string } } };
  const kubeletVersion = (request.machine as { spec?: { version?: string } }).spec?.version;
  const hostName = metal3Machine.metadata.annotations?.['metal3.io/BareMetalHost']?.split('/')[1] ?? '';
  const server = ALL_HOSTS.find((entry) => entry.name === hostName);
  if (server === undefined) throw new Error(`Metal3Machine ${metal3Machine.metadata.name} holds no host of this test (${hostName || 'none'})`);
  if (kubeletVersion === undefined) throw new Error(`the Machine of ${metal3Machine.metadata.name} names no Kubernetes version`);
  const uuid = env.systems[server.system]!.uuid;
  const imageUrl = metal3Machine.spec.image.url;
  const key = `${metal3Machine.metadata.name} ${imageUrl} ${kubeletVersion}`;
  if (!startedUpdates.has(key)) {
    const response = await fetch(`${env.agentSimulatorUrl}/systems/${uuid}/in-place-update`, { method: 'POST', body: JSON.stringify({ imageUrl, kubeletVersion }) });
    if (!response.ok) throw new Error(`${server.name} refused the update: ${await response.text()}`);
    startedUpdates.add(key);
    return { done: false, message: `updating ${server.name} to ${osImageOf(imageUrl)} and ${kubeletVersion}` };
  }
  const { systems } = (await (await fetch(`${env.agentSimulatorUrl}/systems`)).json()) as { systems: { uuid: string; workloadNode: string | null }[] };
  const node = systems.find((system) => system.uuid === uuid)?.workloadNode;
  const reported = node ? (await workload.json<WorkloadNode>(['get', 'node', node])).status.nodeInfo : undefined;
  return reported?.osImage === osImageOf(imageUrl) && reported.kubeletVersion === kubeletVersion
    ? { done: true } : { done: false, message: `waiting for ${server.name}'s kubelet` };
}

/**
 * Runs `use` while the update extension serves and is registered with this file's Cluster API
 * managers (an ExtensionConfig `<name>-<namespace>`, called for this namespace's objects only and
 * labelled for these managers), and Cluster API has discovered its three hooks.
 */
async function withUpdateExtension(name: string, use: (extension: InPlaceUpdateExtension) => Promise<void>): Promise<void> {
  const extensionConfig = `${name}-${namespace}`;
  const extension = await startInPlaceUpdateExtension({ dir: join(env.stateDir, 'in-place-extension', extensionConfig), update: updateInstalledOs });
  // The core manager discovers the extension and writes its status; KCP's manager registers it
  // in its own registry from a later reconcile. Until then KCP finds no CanUpdateMachine handler
  // and rolls the Machine it picked by deleting it, so both managers must have registered it.
  const callers = [capi!, controlPlaneProvider!];
  const registrationsBefore = await Promise.all(callers.map(extensionConfigRegistrations));
  try {
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: extensionConfig, labels: capi!.watchLabels },
      spec: { clientConfig: { url: extension.url, caBundle: Buffer.from(extension.caPem).toString('base64') },
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } } },
    }));
    await waitFor(async () => {
      const found = await kubectl.json<{ status?: { handlers?: unknown[] } }>(['get', 'extensionconfig', extensionConfig]);
      return (found.status?.handlers?.length ?? 0) === 3 ? true : undefined;
    }, { timeoutMs: minutes(1), intervalMs: 1_000, what: 'Cluster API to discover the update extension' });
    await waitFor(async () => {
      const registrations = await Promise.all(callers.map(extensionConfigRegistrations));
      return registrations.every((count, index) => count > registrationsBefore[index]!) ? true : undefined;
    }, { timeoutMs: minutes(1), intervalMs: 500, what: 'the core and KCP managers to register the update extension' });
    await use(extension);
  } finally {
    await kubectl.run(['delete', 'extensionconfig', extensionConfig, '--ignore-not-found']);
    await extension.close();
  }
}

/**
 * How many times a manager's ExtensionConfig controller has reconciled without error: each such
 * pass over an existing ExtensionConfig ends by registering it in the manager's runtime registry.
 */
async function extensionConfigRegistrations(manager: ClusterApiManager): Promise<number> {
  const response = await fetch(`${manager.diagnosticsUrl}/metrics`);
  if (!response.ok) throw new Error(`${manager.diagnosticsUrl}/metrics answered ${response.status}`);
  return metricValue(await response.text(), 'controller_runtime_reconcile_total', { controller: 'extensionconfig', result: 'success' });
}

/** Each Machine as `<namespace>/<name>` (how the extension's calls name them), sorted. */
const qualifiedNames = (machines: Machine[]) => machines.map((m) => `${namespace}/${m.metadata.name}`).sort();
/** The Machines the extension has finished UpdateMachine for. */
const updatedByExtension = (extension: InPlaceUpdateExtension) =>
  extension.calls.filter((call) => call.hook === 'UpdateMachine' && call.answer === 'done').map((call) => call.object).sort();

/** The provider's side of an in-place update: the Metal3Machine carries the new image (Cluster API's patch); its host keeps the image it was provisioned with, its consumer, and stays provisioned. */
async function expectHostKept(machine: Machine, images: { metal3Machine: string; host: string }): Promise<void> {
  const m3m = await kubectl.json<{ spec: { image: { url: string } } }>(['get', 'm3m', machine.spec.infrastructureRef.name, '-n', namespace]);
  expect(m3m.spec.image.url).toBe(images.metal3Machine);
  const held = await kubectl.json<Host & { spec: { image?: { url: string } } }>(['get', 'bmh', hostOf(machine), '-n', namespace]);
  expect(held.spec.consumerRef?.name).toBe(machine.spec.infrastructureRef.name);
  expect(held.spec.image?.url).toBe(images.host);
  expect(held.status?.provisioning?.state).toBe('provisioned');
}

/** The server of a Machine was updated in place since `was`: no image written, no boot, nothing on its Node but the update (and the kubelet's re-registration). */
async function expectUpdatedInPlace(machine: Machine, was: SystemRecords, update: { imageUrl: string; kubeletVersion: string }): Promise<void> {
  const hardware = await records(systemOf(hostOf(machine)));
  expect(hardware.imageWrites.length).toBe(was.imageWrites.length);
  expect(hardware.boots.length).toBe(was.boots.length);
  const nodeRecords = hardware.nodes.slice(was.nodes.length).map(({ at: _at, ...rest }) => rest);
  expect(nodeRecords.filter((record) => record.kind !== 'node-registered')).toEqual([
    { kind: 'updated-in-place', node: machine.status!.nodeRef!.name, ...update },
  ]);
}

/** What CABPK's bootstrap data carries that must go nowhere but the server: join tokens, and the cluster CA's key in the control plane's. */
const bootstrapSecrets = new Map<string, SecretValue>();
const bootstrapData = async (machine: Machine) => {
  const secret = await kubectl.json<{ data: { value: string } }>(['get', 'secret', machine.spec.bootstrap.dataSecretName!, '-n', namespace]);
  const userData = Buffer.from(secret.data.value, 'base64').toString('utf8');
  for (const [, token] of userData.matchAll(/\btoken: ([a-z0-9]{6}\.[a-z0-9]{16})\b/g)) {
    bootstrapSecrets.set(token!, { label: `the join token of ${machine.metadata.name}`, value: token! });
  }
  return userData;
};
const setWorkerReplicas = (replicas: number) => kubectl.ok(['patch', 'clusters.cluster.x-k8s.io', CLUSTER, '-n', namespace, '--type=json', '-p',
  JSON.stringify([{ op: 'replace', path: '/spec/topology/workers/machineDeployments/0/replicas', value: replicas }])]);

async function runningWorkers(count: number, what: string): Promise<Machine[]> {
  let last: Machine[] = [];
  return waitFor(async () => {
    last = await workerMachines();
    return last.length === count && last.every((m) => m.status?.phase === 'Running') ? last : undefined;
  }, { timeoutMs: minutes(7), intervalMs: 1_000, what }).catch((error: Error) => {
    throw new Error(`${error.message}; machines: ${JSON.stringify(last.map((m) => [m.metadata.name, m.status?.phase]))}`);
  });
}

/** Resolves with the one worker Machine once it is a Running one other than `before`. */
async function workerReplaced(before: Machine, what: string): Promise<Machine> {
  const [replacement] = await waitFor(async () => {
    const machines = await workerMachines();
    return machines.length === 1 && machines[0]!.metadata.name !== before.metadata.name && machines[0]!.status?.phase === 'Running'
      ? machines : undefined;
  }, { timeoutMs: minutes(7), intervalMs: 1_000, what });
  return replacement!;
}

/**
 * The server's Node carries the Machine's providerID, kubeadm's control plane role only on a
 * control plane node, the host's UID as the kubelet label the template's kubelet arguments give
 * it (cloud-init rendered from the config drive's meta_data), and a kubelet of the version
 * kubeadm set up: the Machine's (by default the stack's). Who set the providerID: the kubelet,
 * creating the Node after kubeadm ran, when the template gives it `--provider-id` (the
 * ClusterClass, as CAPM3's e2e templates); else the provider, on the Node the kubelet made without one.
 */
async function expectNodeOf(machine: Machine, role: { controlPlane: boolean; version?: string; providerIDSetBy: 'kubelet' | 'provider' }): Promise<void> {
  const version = role.version ?? KUBERNETES_VERSION;
  expect(machine.spec.version).toBe(version);
  const node = await workload.json<WorkloadNode>(['get', 'node', machine.status!.nodeRef!.name]);
  expect(node.spec.providerID).toBe(machine.spec.providerID);
  const serverRecords = (await records(systemOf(hostOf(machine)))).nodes;
  const afterKubeadm = serverRecords.slice(serverRecords.findLastIndex((record) => record.kind === 'kubeadm-succeeded'));
  const registration = afterKubeadm.find((record) => record.kind === 'node-registered');
  expect(registration?.providerID).toBe(role.providerIDSetBy === 'kubelet' ? machine.spec.providerID : null);
  const hostUid = (await kubectl.json<{ metadata: { uid: string } }>(['get', 'bmh', hostOf(machine), '-n', namespace])).metadata.uid;
  expect(node.metadata.labels?.['metal3.io/uuid']).toBe(hostUid);
  expect(node.status.nodeInfo.kubeletVersion).toBe(version);
  expect(node.metadata.labels?.['node-role.kubernetes.io/control-plane'] !== undefined).toBe(role.controlPlane);
}

/**
 * `clusterctl generate cluster <name> --flavor kubeadm` from our shipped template, with one change
 * to what it prints: the label this file's Cluster API managers are scoped by, also where
 * Machines inherit it.
 */
async function kubeadmFlavour(options: {
  name: string; controlPlaneCount: number; workerCount: number; kubernetesVersion?: string; variables?: Record<string, string>;
}): Promise<Manifest[]> {
  const { clusterctl } = await buildClusterApi();
  // clusterctl reads and writes its configuration under the home directory: keep it out of the user's.
  const home = mkdtempSync(join(tmpdir(), 'clusterctl-home-'));
  const image = env.images[0]!;
  let generated: string;
  try {
    generated = await run(clusterctl, ['generate', 'cluster', options.name, '--from', join(repoRoot, 'deploy', 'capm3', 'clusterctl', 'cluster-template-kubeadm.yaml'),
      '--kubeconfig', env.kubeconfig, '--target-namespace', namespace, '--kubernetes-version', options.kubernetesVersion ?? KUBERNETES_VERSION,
      '--control-plane-machine-count', String(options.controlPlaneCount), '--worker-machine-count', String(options.workerCount)],
    { component: 'clusterctl', env: { HOME: home, XDG_CONFIG_HOME: home, CLUSTERCTL_DISABLE_VERSIONCHECK: 'true',
      IMAGE_URL: image.url, IMAGE_CHECKSUM: image.sha256, CLUSTER_APIENDPOINT_HOST: '127.0.0.1', ...options.variables } });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  const watchLabels = capi!.watchLabels;
  return parseManifests(generated).map((object: Manifest) => {
    const labelled = { ...object, metadata: { ...object.metadata, labels: { ...object.metadata.labels, ...watchLabels } } } as Manifest & { spec: Record<string, unknown> };
    if (object.kind === 'KubeadmControlPlane') {
      const machineTemplate = labelled.spec.machineTemplate as Record<string, unknown>;
      labelled.spec = { ...labelled.spec, machineTemplate: { ...machineTemplate, metadata: { labels: watchLabels } } };
    }
    if (object.kind === 'MachineDeployment') {
      const template = labelled.spec.template as Record<string, unknown>;
      labelled.spec = { ...labelled.spec, template: { ...template, metadata: { labels: watchLabels } } };
    }
    return labelled;
  });
}

/** Removes what a kubeadm init left in the shared workload cluster (its kubeadm-config, its kube-proxy addon), so the next init must write them. */
async function forgetKubeadmInit(): Promise<void> {
  await workload.run(['delete', 'configmap', 'kubeadm-config', '-n', 'kube-system', '--ignore-not-found']);
  await workload.run(['delete', 'daemonset', 'kube-proxy', '-n', 'kube-system', '--ignore-not-found']);
}

/** The image of kubeadm's kube-proxy addon in the workload cluster; undefined without one. */
async function kubeProxyImage(): Promise<string | undefined> {
  const found = await workload.run(['get', 'daemonset', 'kube-proxy', '-n', 'kube-system', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']);
  return found.code === 0 ? found.stdout.trim() : undefined;
}

/** Resolves once KCP has moved kubeadm's kube-proxy addon to `version` (it does when every Machine runs it). */
async function kubeProxyRetagged(version: string): Promise<void> {
  await waitFor(async () => ((await kubeProxyImage()) === `registry.k8s.io/kube-proxy:${version}` ? true : undefined),
    { timeoutMs: minutes(2), intervalMs: 1_000, what: `KCP to move kube-proxy to ${version}` });
}

/** Resolves when KCP has initialized the Cluster's control plane (kubeadm init ran on a server). */
async function controlPlaneInitialized(cluster: string, timeoutMs: number): Promise<void> {
  await waitFor(async () => {
    const found = await kubectl.json<{ status?: { conditions?: Condition[] } }>(['get', 'clusters.cluster.x-k8s.io', cluster, '-n', namespace]);
    return found.status?.conditions?.find((c) => c.type === 'ControlPlaneInitialized' && c.status === 'True') ? true : undefined;
  }, { timeoutMs, intervalMs: 2_000, what: `${cluster}'s ControlPlaneInitialized from its KubeadmControlPlane` });
}

beforeAll(async () => {
  await installProviderCrds(kubectl, env);
  // What an earlier, interrupted run of this file may have left in the shared workload cluster.
  await forgetKubeadmInit();
  for (const { name } of FILE_HOSTS) await workload.run(['delete', 'node', name, '--ignore-not-found']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-cc');
  const scoped = { env, stateDir: env.stateDir, namespace, label: namespace };
  [capi, bootstrapProvider, controlPlaneProvider] = await Promise.all([
    // InPlaceUpdates and RuntimeSDK for the in-place updates (the flavour's workers, then KCP's
    // Machines); without a registered update extension they change nothing.
    startClusterApiManager({ ...scoped, featureGates: { ClusterTopology: true, InPlaceUpdates: true, RuntimeSDK: true } }),
    startClusterApiManager({ ...scoped, component: 'kubeadm-bootstrap' }),
    startClusterApiManager({ ...scoped, component: 'kubeadm-control-plane', featureGates: { ClusterTopology: true, InPlaceUpdates: true, RuntimeSDK: true } }),
  ]);
  operator = startOperatorProcess({ env, namespace, label: `cc-${namespace}` });
  // CAPM3's webhooks, as its install registers them: the topology controller's dry runs and its clones go through them.
  providerWebhook = await prepareProviderWebhook({ target: env, dir: join(env.stateDir, 'webhooks', namespace), name: `cc-${namespace}`, namespace });
  provider = startProviderProcess({ env, namespace, label: `cc-${namespace}`, extraEnv: providerWebhook.providerEnv });
  await providerWebhook.register(provider.process);
  const hosts = [
    { ...CONTROL_PLANE_HOST, labels: { role: 'control-plane' } },
    ...WORKER_HOSTS.map((h) => ({ ...h, labels: { role: 'worker' } })),
    { ...SPARE_HOST, labels: { role: 'spare' } },
  ];
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    ...hostObjects({ env, namespace, hosts: hosts.map((h) => ({ name: h.name, system: env.systems[h.system]!, labels: h.labels, spec: { online: false } })) }),
    ...sampleClusterClassObjects({ namespace, name: CLASS, watchLabels: capi.watchLabels,
      controlPlaneHostSelector: { role: 'control-plane' }, workerHostSelector: { role: 'worker' } }),
  ] }));
  // The class first: the Cluster's webhook refuses a topology whose class it cannot read yet.
  await waitFor(async () => {
    const found = await kubectl.json<{ status?: { conditions?: Condition[] } }>(['get', 'clusterclasses.cluster.x-k8s.io', CLASS, '-n', namespace]);
    return found.status?.conditions?.find((c) => c.type === 'VariablesReady' && c.status === 'True') ? true : undefined;
  }, { timeoutMs: minutes(1), intervalMs: 1_000, what: 'the ClusterClass to be reconciled' });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: sampleTopologyClusterObjects({
    env, namespace, name: CLUSTER, className: CLASS, watchLabels: capi.watchLabels, version: UPGRADE_FROM, workerReplicas: 0 }) }));
}, minutes(5));

afterAll(async () => {
  // Without its server (stopped below), failurePolicy Fail would refuse the clean-up's writes.
  await providerWebhook?.unregister();
  await tearDownClusterApiFile({ env, kubectl, workload, namespace, clusterApiRan: capi !== undefined,
    processes: [provider, operator, controlPlaneProvider, bootstrapProvider, capi], nodeNames: FILE_HOSTS.map((h) => h.name) });
  await forgetKubeadmInit();
}, minutes(10));

describe('a ClusterClass over Metal3 templates, with the kubeadm control plane and bootstrap providers', () => {
  it('KCP makes the control plane Machine, CABPK its cloud-init, the provider writes it to the host, and kubeadm init there initializes the cluster', async () => {
    const cluster = await waitFor(async () => {
      const found = await kubectl.json<{ status?: { conditions?: Condition[] } }>(['get', 'clusters.cluster.x-k8s.io', CLUSTER, '-n', namespace]);
      return found.status?.conditions?.find((c) => c.type === 'ControlPlaneInitialized' && c.status === 'True') ? found : undefined;
    }, { timeoutMs: minutes(8), intervalMs: 2_000, what: 'ControlPlaneInitialized from the KubeadmControlPlane' });
    expect(cluster.status?.conditions?.find((c) => c.type === 'InfrastructureReady')?.status).toBe('True');

    // The topology's objects, cloned from the class's templates with the Cluster's variables patched in.
    const [metal3Cluster] = await list<{ spec: { controlPlaneEndpoint: { port: number } } }>('metal3clusters', `cluster.x-k8s.io/cluster-name=${CLUSTER}`);
    expect(metal3Cluster?.spec.controlPlaneEndpoint.port).toBe(Number(new URL(env.workload.apiServerUrl).port));
    const [kcp] = await list<{ status?: { initialization?: { controlPlaneInitialized?: boolean } } }>(
      'kubeadmcontrolplanes.controlplane.cluster.x-k8s.io', `cluster.x-k8s.io/cluster-name=${CLUSTER}`);
    expect(kcp?.status?.initialization?.controlPlaneInitialized).toBe(true);

    // kubeadm init uploads kubeadm-config (KCP's "initialized") before its addons and before the
    // kubelet registers the Node, from which the provider sets the providerID: wait for the Node.
    const machine = await waitFor(async () => {
      const [current] = await controlPlaneMachines();
      return current?.status?.nodeRef ? current : undefined;
    }, { timeoutMs: minutes(2), intervalMs: 1_000, what: 'the control plane Machine to have its Node' });
    expect(await controlPlaneMachines()).toHaveLength(1);
    expect(machine.spec.bootstrap.configRef?.kind).toBe('KubeadmConfig');
    expect(hostOf(machine)).toBe(CONTROL_PLANE_HOST.name);
    expect((await host(CONTROL_PLANE_HOST.name)).status?.provisioning?.state).toBe('provisioned');

    // On the server: the image the class's patch gave, with CABPK's data as the config drive's user data, unchanged.
    const hardware = await records(CONTROL_PLANE_HOST.system);
    const written = hardware.imageWrites.at(-1)!;
    expect(written).toMatchObject({ outcome: 'written', url: env.images[0]!.url });
    expect(written.configDrive.userData).toBe(await bootstrapData(machine));
    expect(written.configDrive.userData).toContain('kubeadm init --config /run/kubeadm/kubeadm.yaml');
    // The meta data the control plane's Metal3DataTemplate (the class's variable) renders, whose providerid the kubelet is started with.
    expect(written.configDrive.metaData).toMatchObject({ name: machine.metadata.name, providerid: `${namespace}/${CONTROL_PLANE_HOST.name}/${machine.spec.infrastructureRef.name}` });
    expect(kubeadmRuns(hardware.nodes, fileStart)).toEqual([{ kind: 'kubeadm-succeeded', node: CONTROL_PLANE_HOST.name, command: 'init', controlPlane: true }]);

    // In the workload cluster: what kubeadm init uploaded and applied, and the control plane Node linked to its Machine.
    const kubeadmConfig = await workload.json<{ data: { ClusterConfiguration: string } }>(['get', 'configmap', 'kubeadm-config', '-n', 'kube-system']);
    expect(kubeadmConfig.data.ClusterConfiguration).toMatch(new RegExp(`^clusterName: ${CLUSTER}$`, 'm'));
    expect(kubeadmConfig.data.ClusterConfiguration).toMatch(new RegExp(`^kubernetesVersion: ${UPGRADE_FROM}$`, 'm'));
    expect(await kubeProxyImage()).toBe(`registry.k8s.io/kube-proxy:${UPGRADE_FROM}`);
    await expectNodeOf(machine, { controlPlane: true, version: UPGRADE_FROM, providerIDSetBy: 'kubelet' });

    // The topology made the workers' MachineDeployment, at the 0 replicas the Cluster asks for.
    const deployments = await list<{ spec: { replicas: number } }>('machinedeployments.cluster.x-k8s.io', WORKER_SELECTOR);
    expect(deployments.map((md) => md.spec.replicas)).toEqual([0]);
  });

  it('raising the topology\'s worker replicas to 2 provisions both worker hosts, whose servers join with CABPK\'s bootstrap token', async () => {
    await setWorkerReplicas(2);
    const machines = await runningWorkers(2, 'two Running workers');
    expect(machines.map(hostOf).sort()).toEqual(WORKER_HOSTS.map((h) => h.name).sort());
    for (const machine of machines) {
      const hostName = hostOf(machine);
      expect(machine.spec.providerID).toBe(`metal3://${namespace}/${hostName}/${machine.spec.infrastructureRef.name}`);
      expect(machine.spec.bootstrap.configRef?.kind).toBe('KubeadmConfig');
      expect((await host(hostName)).status?.provisioning?.state).toBe('provisioned');
      const hardware = await records(systemOf(hostName));
      expect(hardware.imageWrites.at(-1)!.configDrive.userData).toBe(await bootstrapData(machine));
      // The simulator lets kubeadm join in only with a bootstrap token Secret that CABPK made in the workload cluster.
      expect(kubeadmRuns(hardware.nodes, fileStart)).toEqual([{ kind: 'kubeadm-succeeded', node: hostName, command: 'join', controlPlane: false }]);
      await expectNodeOf(machine, { controlPlane: false, version: UPGRADE_FROM, providerIDSetBy: 'kubelet' });
    }
  });

  it('lowering them to 1 deprovisions one worker: its Node goes and its host is available again', async () => {
    await setWorkerReplicas(1);
    const released = await waitFor(async () => {
      for (const { name } of WORKER_HOSTS) {
        const current = await host(name);
        if (isFree(current)) return name;
      }
      return undefined;
    }, { timeoutMs: minutes(5), intervalMs: 1_000, what: 'a worker host to be available again' });
    const [kept] = await runningWorkers(1, 'one Running worker');
    expect(hostOf(kept!)).not.toBe(released);
    const nodes = (await records(systemOf(released))).nodes;
    expect(nodes.at(-1)).toMatchObject({ kind: 'node-deleted', node: released, reason: 'powered-off-for-deprovisioning' });
    expect((await workload.run(['get', 'node', released])).code).not.toBe(0);
  });

  it('a new worker image in the Cluster\'s variables: the topology clones a new worker template and the worker rolls onto the free host with that image; the control plane stays', async () => {
    const [before] = await workerMachines();
    const oldHost = hostOf(before!);
    const freeHost = WORKER_HOSTS.find((h) => h.name !== oldHost)!;
    const [deployment] = await list<{ spec: { template: { spec: { infrastructureRef: { name: string } } } } }>('machinedeployments.cluster.x-k8s.io', WORKER_SELECTOR);
    const oldTemplate = deployment!.spec.template.spec.infrastructureRef.name;
    const [controlPlane] = await controlPlaneMachines();
    const controlPlaneWrites = (await records(CONTROL_PLANE_HOST.system)).imageWrites.length;

    const cluster = await kubectl.json<{ spec: { topology: { variables: { name: string }[] } } }>(['get', 'clusters.cluster.x-k8s.io', CLUSTER, '-n', namespace]);
    const index = cluster.spec.topology.variables.findIndex((variable) => variable.name === WORKER_IMAGE);
    const v2 = env.images[1]!;
    await kubectl.ok(['patch', 'clusters.cluster.x-k8s.io', CLUSTER, '-n', namespace, '--type=json', '-p',
      JSON.stringify([{ op: 'replace', path: `/spec/topology/variables/${index}/value`, value: { url: v2.url, checksum: v2.sha256 } }])]);

    const rolled = await workerReplaced(before!, 'the worker rolled onto a new Machine');
    expect(hostOf(rolled)).toBe(freeHost.name);
    const [after] = await list<{ spec: { template: { spec: { infrastructureRef: { name: string } } } } }>('machinedeployments.cluster.x-k8s.io', WORKER_SELECTOR);
    const newTemplate = after!.spec.template.spec.infrastructureRef.name;
    expect(newTemplate).not.toBe(oldTemplate);
    const template = await kubectl.json<{ spec: { template: { spec: { image: { url: string } } } } }>(['get', 'metal3machinetemplates', newTemplate, '-n', namespace]);
    expect(template.spec.template.spec.image.url).toBe(v2.url);
    const hardware = await records(freeHost.system);
    expect(hardware.imageWrites.at(-1)).toMatchObject({ outcome: 'written', url: v2.url });
    expect(hardware.imageWrites.at(-1)!.configDrive.userData).toBe(await bootstrapData(rolled));
    expect(kubeadmRuns(hardware.nodes, fileStart).at(-1)).toEqual({ kind: 'kubeadm-succeeded', node: freeHost.name, command: 'join', controlPlane: false });
    await expectNodeOf(rolled, { controlPlane: false, version: UPGRADE_FROM, providerIDSetBy: 'kubelet' });
    await hostReleased(oldHost, { timeoutMs: minutes(4), what: `${oldHost} to be released by the rollout` });

    const [controlPlaneAfter, ...more] = await controlPlaneMachines();
    expect([controlPlaneAfter?.metadata.name, more.length]).toEqual([controlPlane!.metadata.name, 0]);
    expect((await records(CONTROL_PLANE_HOST.system)).imageWrites).toHaveLength(controlPlaneWrites);
  });

  it('a Kubernetes upgrade of the topology (its version and the control plane image): the control plane rolls first, onto a second control plane host; then the worker is replaced on its own server (maxSurge 0); every new kubelet runs the new version', async () => {
    const [controlPlane] = await controlPlaneMachines();
    const [worker] = await workerMachines();
    const workerHost = WORKER_HOSTS.find((h) => h.name === hostOf(worker!))!;
    // The worker host the last rollout freed becomes the control plane's second host: the new control plane Machine comes up before the old one goes.
    const spareHost = WORKER_HOSTS.find((h) => h.name !== workerHost.name)!;
    expect(isFree(await host(spareHost.name))).toBe(true);
    await kubectl.ok(['label', 'bmh', spareHost.name, '-n', namespace, 'role=control-plane', '--overwrite']);
    const upgradeStart = new Date().toISOString();

    const cluster = await kubectl.json<{ spec: { topology: { variables: { name: string }[] } } }>(['get', 'clusters.cluster.x-k8s.io', CLUSTER, '-n', namespace]);
    const index = cluster.spec.topology.variables.findIndex((variable) => variable.name === CONTROL_PLANE_IMAGE);
    const v2 = env.images[1]!;
    // As CAPM3's k8s-upgrade e2e rolls its workers: without a spare server, each is deleted before its replacement comes.
    const replaceInPlace = { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } };
    await kubectl.ok(['patch', 'clusters.cluster.x-k8s.io', CLUSTER, '-n', namespace, '--type=json', '-p', JSON.stringify([
      { op: 'replace', path: '/spec/topology/version', value: KUBERNETES_VERSION },
      { op: 'replace', path: `/spec/topology/variables/${index}/value`, value: { url: v2.url, checksum: v2.sha256 } },
      { op: 'add', path: '/spec/topology/workers/machineDeployments/0/rollout', value: replaceInPlace },
    ])]);

    // The control plane first: a new Machine on the spare host, then the old one deleted and its server released.
    await hostReleased(CONTROL_PLANE_HOST.name, { timeoutMs: minutes(7), what: `${CONTROL_PLANE_HOST.name} to be released by the control plane rollout` });
    const [rolledControlPlane] = await waitFor(async () => {
      const machines = await controlPlaneMachines();
      return machines.length === 1 && machines[0]!.metadata.name !== controlPlane!.metadata.name && machines[0]!.status?.nodeRef ? machines : undefined;
    }, { timeoutMs: minutes(2), intervalMs: 1_000, what: 'the control plane rolled onto a new Machine with its Node' });
    expect(hostOf(rolledControlPlane!)).toBe(spareHost.name);
    const controlPlaneHardware = await records(spareHost.system);
    expect(controlPlaneHardware.imageWrites.at(-1)).toMatchObject({ outcome: 'written', url: v2.url });
    expect(kubeadmRuns(controlPlaneHardware.nodes, upgradeStart)).toEqual([{ kind: 'kubeadm-succeeded', node: spareHost.name, command: 'join', controlPlane: true }]);
    await expectNodeOf(rolledControlPlane!, { controlPlane: true, version: KUBERNETES_VERSION, providerIDSetBy: 'kubelet' });

    // Then the worker, on the server it had (the only free worker host once its Machine is gone), with its image written again.
    const rolledWorker = await workerReplaced(worker!, 'the worker replaced by a Machine of the new version');
    expect(hostOf(rolledWorker)).toBe(workerHost.name);
    const workerHardware = await records(workerHost.system);
    const sinceUpgrade = workerHardware.nodes.filter((record) => record.at >= upgradeStart).map(({ at: _at, ...rest }) => rest);
    expect(sinceUpgrade[0]).toMatchObject({ kind: 'node-deleted', node: workerHost.name, reason: 'powered-off-for-deprovisioning' });
    expect(kubeadmRuns(workerHardware.nodes, upgradeStart)).toEqual([{ kind: 'kubeadm-succeeded', node: workerHost.name, command: 'join', controlPlane: false }]);
    expect(workerHardware.imageWrites.filter((write) => write.at >= upgradeStart).map((write) => [write.outcome, write.url])).toEqual([['written', v2.url]]);
    await expectNodeOf(rolledWorker, { controlPlane: false, version: KUBERNETES_VERSION, providerIDSetBy: 'kubelet' });
    await kubeProxyRetagged(KUBERNETES_VERSION);
    // The role the next part of this file expects of that host (its Machine, already placed, does not look again).
    await kubectl.ok(['label', 'bmh', spareHost.name, '-n', namespace, 'role=worker', '--overwrite']);
  });

  it('the operator and the provider wrote none of CABPK\'s secrets (join tokens, the cluster CA key) to their logs, Events, hosts or Metal3Machines', async () => {
    const ca = await kubectl.json<{ data: { 'tls.key': string } }>(['get', 'secret', `${CLUSTER}-ca`, '-n', namespace]);
    const keyPem = Buffer.from(ca.data['tls.key'], 'base64').toString('utf8');
    // One line of the key's body: a log would escape the PEM's line breaks.
    const keyLine = keyPem.split('\n').filter((line) => !line.startsWith('-----')).sort((a, b) => b.length - a.length)[0]!;
    const secrets = [...bootstrapSecrets.values(), { label: 'a line of the cluster CA key', value: keyLine }];
    // The tokens the workers joined with (read by the tests above), and the CA key the control plane's data carried.
    expect(bootstrapSecrets.size).toBeGreaterThanOrEqual(1);
    expect(keyLine.length).toBeGreaterThan(40);
    expect((await records(CONTROL_PLANE_HOST.system)).imageWrites.at(-1)!.configDrive.userData).toContain(keyLine);
    const report = await scanForSecrets({ logFiles: [operator!.process.logPath, provider!.logPath], secrets, kubectl, namespace });
    expect(report.objects).toBeGreaterThan(0);
    expect(report.found).toEqual([]);
  });

  it('deleting the Cluster deletes the control plane and the workers and releases every host', async () => {
    await kubectl.ok(['delete', 'clusters.cluster.x-k8s.io', CLUSTER, '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await list('clusters.cluster.x-k8s.io')).length === 0 ? true : undefined),
      { timeoutMs: minutes(6), intervalMs: 2_000, what: 'the Cluster to be deleted' });
    for (const kind of ['kubeadmcontrolplanes.controlplane.cluster.x-k8s.io', 'machinedeployments.cluster.x-k8s.io', 'machines.cluster.x-k8s.io', 'metal3machines']) {
      expect([kind, (await list(kind)).length]).toEqual([kind, 0]);
    }
    for (const { name, system } of ALL_HOSTS) {
      const current = await waitFor(async () => {
        const found = await host(name);
        return found.status?.provisioning?.state === 'available' && !found.spec.consumerRef ? found : undefined;
      }, { timeoutMs: minutes(3), intervalMs: 1_000, what: `${name} to be released` });
      expect(current.spec.consumerRef).toBeUndefined();
      expect((await records(system)).nodes.at(-1)).toMatchObject({ kind: 'node-deleted', node: name });
    }
  });
});

describe('clusterctl generate cluster --flavor kubeadm, as shipped, on the same managers and hosts', () => {
  const DEMO = 'demo';
  const demoWorkers = () => list<Machine>('machines.cluster.x-k8s.io', `cluster.x-k8s.io/deployment-name=${DEMO}-workers`);
  let since = '';

  beforeAll(async () => {
    since = new Date().toISOString();
    // The ClusterClass cluster's kubeadm init left these; the new control plane's init must write them again.
    await forgetKubeadmInit();
    const scoped = await kubeadmFlavour({ name: DEMO, controlPlaneCount: 1, workerCount: 1 });
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List',
      items: [workloadKubeconfigSecret(env, DEMO, namespace), ...scoped] }));
  }, minutes(2));

  it('KCP and CABPK bring the control plane and one worker up on the hosts the roles select, with the kubelet arguments the template sets', async () => {
    await controlPlaneInitialized(DEMO, minutes(6));
    // kubeadm init uploads kubeadm-config (KCP's "initialized") before the kubelet registers the Node, from which the provider sets the providerID.
    const controlPlane = await waitFor(async () => {
      const [machine] = await list<Machine>('machines.cluster.x-k8s.io', `cluster.x-k8s.io/cluster-name=${DEMO},cluster.x-k8s.io/control-plane`);
      return machine?.spec.providerID ? machine : undefined;
    }, { timeoutMs: minutes(2), intervalMs: 1_000, what: `${DEMO}'s control plane Machine to have its providerID` });
    expect(hostOf(controlPlane)).toBe(CONTROL_PLANE_HOST.name);
    const hardware = await records(CONTROL_PLANE_HOST.system);
    const userData = hardware.imageWrites.at(-1)!.configDrive.userData!;
    expect(userData).toBe(await bootstrapData(controlPlane));
    expect(userData).toContain('kubeadm init --config /run/kubeadm/kubeadm.yaml');
    // The template's kubelet argument, for the provider to find the Node by the host's UID.
    expect(userData).toContain('metal3.io/uuid={{ ds.meta_data.uuid }}');
    expect(kubeadmRuns(hardware.nodes, since)).toEqual([{ kind: 'kubeadm-succeeded', node: CONTROL_PLANE_HOST.name, command: 'init', controlPlane: true }]);

    const workers = await waitFor(async () => {
      const machines = await demoWorkers();
      return machines.length === 1 && machines[0]!.status?.phase === 'Running' ? machines : undefined;
    }, { timeoutMs: minutes(5), intervalMs: 1_000, what: `${DEMO}'s worker Running` });
    const workerHost = hostOf(workers[0]!);
    expect(WORKER_HOSTS.map((h) => h.name)).toContain(workerHost);
    expect(kubeadmRuns((await records(systemOf(workerHost))).nodes, since))
      .toEqual([{ kind: 'kubeadm-succeeded', node: workerHost, command: 'join', controlPlane: false }]);
    await expectNodeOf(workers[0]!, { controlPlane: false, providerIDSetBy: 'provider' });
  });

  it('kubectl scale machinedeployment demo-workers --replicas=2 provisions the other worker host, which joins too', async () => {
    const [first] = await demoWorkers();
    await kubectl.ok(['scale', 'machinedeployment', `${DEMO}-workers`, '-n', namespace, '--replicas=2']);
    const machines = await waitFor(async () => {
      const found = await demoWorkers();
      return found.length === 2 && found.every((m) => m.status?.phase === 'Running') ? found : undefined;
    }, { timeoutMs: minutes(5), intervalMs: 1_000, what: `${DEMO}'s two workers Running` });
    const added = machines.find((m) => m.metadata.name !== first!.metadata.name)!;
    const addedHost = hostOf(added);
    expect(addedHost).not.toBe(hostOf(first!));
    expect((await host(addedHost)).status?.provisioning?.state).toBe('provisioned');
    expect(kubeadmRuns((await records(systemOf(addedHost))).nodes, since))
      .toEqual([{ kind: 'kubeadm-succeeded', node: addedHost, command: 'join', controlPlane: false }]);
    await expectNodeOf(added, { controlPlane: false, providerIDSetBy: 'provider' });
  });

  it('an in-place update, as CAPM3\'s in-place e2e runs one: a new worker template (image 2) with maxSurge 0, and an update extension that can apply it; both workers keep their Machine and server, which is updated without re-imaging', async () => {
    const before = await demoWorkers();
    expect(before).toHaveLength(2);
    const v1 = env.images[0]!;
    const v2 = env.images[1]!;
    const servers = before.map((machine) => ({ machine, system: systemOf(hostOf(machine)) }));
    const recordsBefore = new Map(await Promise.all(servers.map(async ({ system }) => [system, await records(system)] as const)));
    for (const { machine } of servers) expect(await nodeOsImage(machine)).toBe(osImageOf(v1.url));

    await withUpdateExtension('in-place', async (extension) => {
      // The flavour's worker template, as it is but for the image.
      const templateName = (await kubectl.json<{ spec: { template: { spec: { infrastructureRef: { name: string } } } } }>(
        ['get', 'machinedeployment', `${DEMO}-workers`, '-n', namespace])).spec.template.spec.infrastructureRef.name;
      const current = await kubectl.json<{ spec: { template: { spec: Record<string, unknown> } } }>(['get', 'm3mt', templateName, '-n', namespace]);
      await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3MachineTemplate',
        metadata: { name: `${templateName}-v2`, namespace },
        spec: { template: { spec: { ...current.spec.template.spec, image: { url: v2.url, checksum: v2.sha256, checksumType: 'sha256', diskFormat: 'raw' } } } } }));
      await kubectl.ok(['patch', 'machinedeployment', `${DEMO}-workers`, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: {
        rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } },
        template: { spec: { infrastructureRef: { name: `${templateName}-v2` } } } } })]);

      // Both workers run the new image's OS, with no update left in progress.
      const after = await waitFor(async () => {
        const machines = await demoWorkers();
        if (machines.length !== 2 || machines.some((m) => m.status?.phase !== 'Running' || m.metadata.annotations?.[UPDATE_IN_PROGRESS] !== undefined)) return undefined;
        for (const machine of machines) if ((await nodeOsImage(machine)) !== osImageOf(v2.url)) return undefined;
        return machines;
      }, { timeoutMs: minutes(4), intervalMs: 1_000, what: `${DEMO}'s workers updated in place` });

      // Cluster API's side: the same Machines, each asked about and updated through the extension.
      expect(after.map((m) => m.metadata.uid).sort()).toEqual(before.map((m) => m.metadata.uid).sort());
      expect(extension.calls.filter((call) => call.hook === 'CanUpdateMachineSet').map((call) => call.answer)).toContain('infrastructureMachineTemplatePatch');
      expect(updatedByExtension(extension)).toEqual(qualifiedNames(before));
      for (const { machine, system } of servers) {
        // Its Metal3Machine carries image 2 (Cluster API's patch); its host keeps image 1.
        await expectHostKept(machine, { metal3Machine: v2.url, host: v1.url });
        // The hardware's side: updated in place (the kubelet told its unchanged version); never re-imaged, rebooted or deprovisioned.
        await expectUpdatedInPlace(machine, recordsBefore.get(system)!, { imageUrl: v2.url, kubeletVersion: KUBERNETES_VERSION });
      }
    });
  });
});

describe('a KubeadmControlPlane with stacked etcd, as clusterctl\'s kubeadm flavour makes it: its Kubernetes upgrades (rolling, then in place), scale up, remediation, node reuse and scale down on the hosts', () => {
  // KCP checks each control plane node's static pods (mirrored by its kubelet) and its etcd
  // member, which it reaches with a port-forward through the workload API server to the node's
  // kubelet; the simulated servers run a real etcd member each, with the cluster's etcd CA. The
  // cluster starts two releases behind the stack's and is upgraded twice: first as CAPM3's
  // k8s-upgrade e2e does it (a new version and a new Metal3MachineTemplate, image 2, in the
  // KubeadmControlPlane: a rollout onto new Machines), then at three Machines as its in-place
  // upgrade e2e does it (the stack's version and image 3 with maxSurge 0, through an update
  // extension). Last it rolls with node reuse, as CAPM3's node reuse e2e does, while a fourth host is free.
  const STARTS_AT = releaseBefore(UPGRADE_FROM);
  const ROLLS_TO = UPGRADE_FROM;
  const UPDATES_IN_PLACE_TO = KUBERNETES_VERSION;
  const KCP_CLUSTER = 'stacked';
  const KCP = `${KCP_CLUSTER}-control-plane`;
  const ROLE = 'kcp';
  const POD_CONDITIONS = ['APIServerPodHealthy', 'ControllerManagerPodHealthy', 'SchedulerPodHealthy', 'EtcdPodHealthy', 'EtcdMemberHealthy'];
  const kcpMachines = () => list<Machine & { status?: { conditions?: Condition[]; certificatesExpiryDate?: string } }>('machines.cluster.x-k8s.io',
    `cluster.x-k8s.io/cluster-name=${KCP_CLUSTER},cluster.x-k8s.io/control-plane`);
  const kcpObject = () => kubectl.json<{ spec: { machineTemplate: { spec: { infrastructureRef: { name: string } } } };
    status?: { conditions?: Condition[]; version?: string } }>(['get', 'kubeadmcontrolplanes.controlplane.cluster.x-k8s.io', KCP, '-n', namespace]);
  const staticPodsOn = async (node: string) => (await workload.json<{ items: { metadata: { name: string; annotations?: Record<string, string> };
    spec: { containers: { image: string }[] }; status?: { phase?: string } }[] }>(['get', 'pods', '-n', 'kube-system', '--field-selector', `spec.nodeName=${node}`])).items;
  /** The Kubernetes version kubeadm-config's ClusterConfiguration names (KCP writes it before it upgrades a Machine). */
  const kubeadmConfigVersion = async () => /^kubernetesVersion: (\S+)$/m.exec((await workload.json<{ data: { ClusterConfiguration: string } }>(
    ['get', 'configmap', 'kubeadm-config', '-n', 'kube-system'])).data.ClusterConfiguration)?.[1];

  /** Makes `<KCP>-<suffix>`: KCP's current Metal3MachineTemplate but for the image (and `nodeReuse`), and points KCP at it with `version`. */
  async function upgradeKcp(options: { suffix: string; image: { url: string; sha256: string }; version: string; maxSurge?: number; nodeReuse?: boolean }): Promise<void> {
    const currentName = (await kcpObject()).spec.machineTemplate.spec.infrastructureRef.name;
    const template = await kubectl.json<Manifest & { spec: { template: { spec: Record<string, unknown> }; nodeReuse?: boolean } }>(
      ['get', 'metal3machinetemplates', currentName, '-n', namespace]);
    const { url: _url, checksum: _checksum, ...imageRest } = template.spec.template.spec.image as Record<string, unknown>;
    const name = `${KCP}-${options.suffix}`;
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: template.apiVersion, kind: template.kind,
      metadata: { name, namespace, labels: template.metadata.labels },
      spec: { ...template.spec, ...(options.nodeReuse === undefined ? {} : { nodeReuse: options.nodeReuse }),
        template: { spec: { ...template.spec.template.spec, image: { ...imageRest, url: options.image.url, checksum: options.image.sha256 } } } } }));
    const rollout = options.maxSurge === undefined ? {} : { rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: options.maxSurge } } } };
    await kubectl.ok(['patch', 'kubeadmcontrolplanes.controlplane.cluster.x-k8s.io', KCP, '-n', namespace, '--type=merge', '-p',
      JSON.stringify({ spec: { version: options.version, machineTemplate: { spec: { infrastructureRef: { name } } }, ...rollout } })]);
  }
  let since = '';
  let pki = '';

  /** Waits for `count` control plane Machines, all Running with every pod and etcd member condition KCP sets True, and KCP Available. */
  async function healthyControlPlane(count: number, what: string): Promise<Machine[]> {
    let last: (Machine & { status?: { conditions?: Condition[] } })[] = [];
    const machines = await waitFor(async () => {
      last = await kcpMachines();
      const healthy = (m: (typeof last)[number]) => POD_CONDITIONS.every((type) => m.status?.conditions?.find((c) => c.type === type)?.status === 'True');
      return last.length === count && last.every((m) => m.status?.phase === 'Running' && healthy(m)) ? last : undefined;
    }, { timeoutMs: minutes(8), intervalMs: 2_000, what }).catch((error: Error) => {
      throw new Error(`${error.message}; machines: ${JSON.stringify(last.map((m) => [m.metadata.name, m.status?.phase,
        m.status?.conditions?.filter((c) => c.status !== 'True').map((c) => `${c.type}=${c.status} ${c.message ?? ''}`)]))}`);
    });
    await waitFor(async () => ((await kcpObject()).status?.conditions?.find((c) => c.type === 'Available')?.status === 'True' ? true : undefined),
      { timeoutMs: minutes(2), intervalMs: 2_000, what: `${KCP} Available` });
    return machines;
  }

  /**
   * Runs `use` against the etcd member on `node`, reached the way KCP reaches it: a port-forward
   * to its etcd Pod and a client certificate from the cluster's etcd CA (the Secret KCP made).
   */
  /**
   * Reads a node's etcd member through a port-forward, as KCP does. A member that joined a moment
   * ago may still drop client connections, so a failed read is tried again on a new forward.
   */
  async function withEtcdOn<T>(node: string, use: (client: { url: string; tls: EtcdClientTls }) => Promise<T>): Promise<T> {
    const caSecret = await kubectl.json<{ data: Record<string, string> }>(['get', 'secret', `${KCP_CLUSTER}-etcd`, '-n', namespace]);
    const ca = { cert: Buffer.from(caSecret.data['tls.crt']!, 'base64').toString('utf8'), key: Buffer.from(caSecret.data['tls.key']!, 'base64').toString('utf8') };
    const certificates = await issueEtcdCertificates({ dir: mkdtempSync(join(pki, 'client-')), ca, node: 'e2e-client' });
    return waitFor(async () => {
      const forward = await workload.portForward({ namespace: 'kube-system', pod: `etcd-${node}`, port: 2379 });
      try {
        return await use({ url: `https://127.0.0.1:${forward.localPort}`, tls: clientTls(certificates) });
      } finally {
        await forward.close();
      }
    }, { timeoutMs: 30_000, intervalMs: 1_000, what: `etcd on ${node} to answer through a port-forward` });
  }
  const etcdMembersSeenFrom = (node: string) => withEtcdOn(node, async (client) => (await listMembers(client)).map((m) => m.name ?? '').sort());

  /**
   * The server of a deleted control plane Machine was deprovisioned: powered off, its Node and its
   * mirror Pods gone, its host free; or, from a template with node reuse, available and booked
   * for the control plane (consumerRef on the Cluster, CAPM3's node-reuse label).
   */
  async function expectReleased(hostName: string, options: { bookedForReuse?: boolean } = {}): Promise<void> {
    if (options.bookedForReuse) {
      const booked = await waitFor(async () => {
        const found = await kubectl.json<Host & { metadata: { labels?: Record<string, string> }; spec: { consumerRef?: { kind: string } } }>(
          ['get', 'bmh', hostName, '-n', namespace]);
        return found.status?.provisioning?.state === 'available' && found.spec.consumerRef?.kind === 'Cluster' ? found : undefined;
      }, { timeoutMs: minutes(5), intervalMs: 1_000, what: `${hostName} to be deprovisioned and booked for ${KCP}` });
      expect(booked.spec.consumerRef?.name).toBe(KCP_CLUSTER);
      expect(booked.metadata.labels?.[REUSE_LABEL]).toBe(`cp-${KCP}`);
    } else {
      await hostReleased(hostName, { timeoutMs: minutes(5), what: `${hostName} to be released` });
    }
    expect((await records(systemOf(hostName))).nodes.at(-1)).toMatchObject({ kind: 'node-deleted', node: hostName, reason: 'powered-off-for-deprovisioning' });
    expect((await workload.run(['get', 'node', hostName])).code).not.toBe(0);
    expect(await staticPodsOn(hostName)).toEqual([]);
  }

  /** Once every Machine runs `version`, KCP reports it and retags kubeadm's kube-proxy addon. */
  async function kcpReports(version: string): Promise<void> {
    await waitFor(async () => ((await kcpObject()).status?.version === version ? true : undefined),
      { timeoutMs: minutes(2), intervalMs: 1_000, what: `${KCP} to report ${version}` });
    await kubeProxyRetagged(version);
  }

  beforeAll(async () => {
    // The hosts are the clusterctl flavour's: delete that cluster and wait for all three to be free.
    await kubectl.ok(['delete', 'clusters.cluster.x-k8s.io', '--all', '-n', namespace, '--wait=false']);
    for (const { name } of ALL_HOSTS) {
      await hostReleased(name, { timeoutMs: minutes(6), what: `${name} to be released by the clusterctl cluster's deletion` });
    }
    since = new Date().toISOString();
    pki = mkdtempSync(join(tmpdir(), 'stacked-etcd-client-'));
    await forgetKubeadmInit();
    for (const { name } of ALL_HOSTS) await kubectl.ok(['label', 'bmh', name, '-n', namespace, `role=${ROLE}`, '--overwrite']);
    const manifests = await kubeadmFlavour({ name: KCP_CLUSTER, controlPlaneCount: 1, workerCount: 0, kubernetesVersion: STARTS_AT,
      variables: { CONTROL_PLANE_HOST_ROLE: ROLE } });
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List',
      items: [workloadKubeconfigSecret(env, KCP_CLUSTER, namespace), ...manifests] }));
  }, minutes(8));

  afterAll(() => {
    if (pki !== '') rmSync(pki, { recursive: true, force: true });
  });

  it('kubeadm init on the first host: its kubelet mirrors the four static pods, its etcd member starts the cluster, KCP finds all healthy and reads the API server certificate\'s expiry', async () => {
    await controlPlaneInitialized(KCP_CLUSTER, minutes(6));
    const [machine] = await healthyControlPlane(1, `${KCP}'s first Machine healthy`);
    const hostName = hostOf(machine!);
    const hardware = await records(systemOf(hostName));
    expect(hardware.imageWrites.at(-1)!.configDrive.userData).toBe(await bootstrapData(machine!));
    expect(kubeadmRuns(hardware.nodes, since)).toEqual([{ kind: 'kubeadm-succeeded', node: hostName, command: 'init', controlPlane: true }]);
    await expectNodeOf(machine!, { controlPlane: true, version: STARTS_AT, providerIDSetBy: 'provider' });
    expect(await kubeProxyImage()).toBe(`registry.k8s.io/kube-proxy:${STARTS_AT}`);
    const pods = await staticPodsOn(hostName);
    expect(pods.map((pod) => pod.metadata.name).sort()).toEqual(['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'].map((c) => `${c}-${hostName}`));
    expect(pods.every((pod) => pod.status?.phase === 'Running' && pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined)).toBe(true);
    expect(await etcdMembersSeenFrom(hostName)).toEqual([hostName]);

    // KCP's last step reads the serving certificate of the node's kube-apiserver through a port-forward; the Machine shows its expiry.
    const { notAfter } = await servingCertificate(tlsAddress(env.workload.apiServerUrl));
    const withExpiry = await waitFor(async () => {
      const [current] = await kcpMachines();
      return current?.status?.certificatesExpiryDate ? current : undefined;
    }, { timeoutMs: minutes(2), intervalMs: 2_000, what: `${KCP}'s Machine to show its certificates' expiry` });
    expect(Date.parse(withExpiry.status!.certificatesExpiryDate!)).toBe(notAfter.getTime());
  });

  it('a Kubernetes upgrade (the next version and a template with image 2): KCP writes the version to kubeadm-config, rolls the control plane onto a second host whose kubelet runs it, removes the first member and Machine, then moves kube-proxy to it', async () => {
    const [before] = await kcpMachines();
    expect(before!.spec.version).toBe(STARTS_AT);
    const oldHost = hostOf(before!);
    const v2 = env.images[1]!;
    await upgradeKcp({ suffix: 'v2', image: v2, version: ROLLS_TO });

    await expectReleased(oldHost);
    const [rolled] = await healthyControlPlane(1, `${KCP} rolled onto a new Machine`);
    expect(rolled!.metadata.name).not.toBe(before!.metadata.name);
    const newHost = hostOf(rolled!);
    expect(newHost).not.toBe(oldHost);
    const hardware = await records(systemOf(newHost));
    expect(hardware.imageWrites.at(-1)).toMatchObject({ outcome: 'written', url: v2.url });
    expect(kubeadmRuns(hardware.nodes, since)).toEqual([{ kind: 'kubeadm-succeeded', node: newHost, command: 'join', controlPlane: true }]);
    // The joining kubelet runs the version kubeadm-config names: KCP wrote the new one there before it made the Machine.
    await expectNodeOf(rolled!, { controlPlane: true, version: ROLLS_TO, providerIDSetBy: 'provider' });
    expect(await kubeadmConfigVersion()).toBe(ROLLS_TO);
    expect((await staticPodsOn(newHost)).map((pod) => pod.metadata.name)).toHaveLength(4);
    // KCP removed the old server's member before deleting its Machine: the etcd cluster is the new member alone.
    expect(await etcdMembersSeenFrom(newHost)).toEqual([newHost]);
    // Once every Machine runs the new version, KCP reports it and retags kubeadm's kube-proxy addon.
    await kcpReports(ROLLS_TO);
  });

  it('kubectl scale kubeadmcontrolplane to 3 adds two control plane nodes and etcd members (KCP refuses an even count with stacked etcd)', async () => {
    const [first] = await kcpMachines();
    await kubectl.ok(['scale', 'kubeadmcontrolplanes.controlplane.cluster.x-k8s.io', KCP, '-n', namespace, '--replicas=3']);
    const machines = await healthyControlPlane(3, `${KCP} at three healthy Machines`);
    const added = machines.filter((m) => m.metadata.name !== first!.metadata.name);
    for (const machine of added) {
      const addedHost = hostOf(machine);
      expect(kubeadmRuns((await records(systemOf(addedHost))).nodes, since).at(-1))
        .toEqual({ kind: 'kubeadm-succeeded', node: addedHost, command: 'join', controlPlane: true });
      await expectNodeOf(machine, { controlPlane: true, version: ROLLS_TO, providerIDSetBy: 'provider' });
    }
    expect(await etcdMembersSeenFrom(hostOf(added[0]!))).toEqual(machines.map(hostOf).sort());
  });

  it('a MachineHealthCheck over the control plane: when the etcd leader\'s Node goes NotReady, KCP moves leadership off it, removes its member, deletes its Machine and makes a new one on the freed server', async () => {
    const machines = await kcpMachines();
    expect(machines).toHaveLength(3);
    // The leader's Machine is the one to break: KCP must then move etcd leadership (through a port-forward to the leader) before it deletes.
    const before = await withEtcdOn(hostOf(machines[0]!), async (client) => ({ leader: await leaderId(client), members: await listMembers(client) }));
    const leader = before.members.find((member) => member.ID === before.leader);
    const target = machines.find((m) => hostOf(m) === leader?.name);
    if (leader === undefined || target === undefined) {
      throw new Error(`no Machine runs the etcd leader ${before.leader}; members: ${JSON.stringify(before.members.map((m) => [m.ID, m.name]))}`);
    }
    const targetHost = hostOf(target);
    const nodeBefore = await workload.json<{ metadata: { uid: string } }>(['get', 'node', targetHost]);
    const healthCheck = `${KCP}-health`;
    const unhealthy = (status: string) => ({ type: 'Ready', status, timeoutSeconds: 10 });
    // No remediation template: the Machines' owner, KCP, remediates them.
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineHealthCheck',
      metadata: { name: healthCheck, namespace, labels: capi!.watchLabels },
      spec: { clusterName: KCP_CLUSTER, selector: { matchLabels: { 'cluster.x-k8s.io/control-plane': '' } },
        checks: { nodeStartupTimeoutSeconds: 0, unhealthyNodeConditions: [unhealthy('False'), unhealthy('Unknown')] } } }));
    await waitFor(async () => {
      const found = await kubectl.json<{ status?: { expectedMachines?: number; currentHealthy?: number } }>(
        ['get', 'machinehealthchecks.cluster.x-k8s.io', healthCheck, '-n', namespace]);
      return found.status?.currentHealthy === 3 && found.status.expectedMachines === 3 ? true : undefined;
    }, { timeoutMs: minutes(2), intervalMs: 1_000, what: `${healthCheck} to count three healthy control plane Machines` });

    const broken = new Date().toISOString();
    await markNodeNotReady(workload, targetHost);
    let lastConditions: Condition[] = [];
    await waitFor(async () => {
      const current = (await kcpMachines()).find((m) => m.metadata.name === target.metadata.name);
      lastConditions = current?.status?.conditions?.filter((c) => ['HealthCheckSucceeded', 'OwnerRemediated', 'Deleting'].includes(c.type)) ?? lastConditions;
      return current === undefined ? true : undefined;
    }, { timeoutMs: minutes(6), intervalMs: 1_000, what: `KCP to remediate ${target.metadata.name} away` }).catch((error: Error) => {
      throw new Error(`${error.message}; its last conditions: ${JSON.stringify(lastConditions)}`);
    });

    const after = await healthyControlPlane(3, `${KCP} at three healthy Machines after the remediation`);
    const replacements = after.filter((m) => !machines.some((old) => old.metadata.name === m.metadata.name));
    expect(replacements).toHaveLength(1);
    const replacement = replacements[0]!;
    // KCP's record of what the new Machine replaces.
    const remediationFor = JSON.parse(replacement.metadata.annotations?.['controlplane.cluster.x-k8s.io/remediation-for'] ?? '{}') as { machine?: string };
    expect(remediationFor.machine).toBe(target.metadata.name);
    // The only free server is the one that was broken: deprovisioned, then written and joined again.
    expect(hostOf(replacement)).toBe(targetHost);
    const hardware = await records(systemOf(targetHost));
    expect(hardware.nodes.find((record) => record.at >= broken)).toMatchObject({ kind: 'node-deleted', node: targetHost, reason: 'powered-off-for-deprovisioning' });
    expect(kubeadmRuns(hardware.nodes, broken)).toEqual([{ kind: 'kubeadm-succeeded', node: targetHost, command: 'join', controlPlane: true }]);
    expect(hardware.imageWrites.filter((write) => write.at >= broken).map((write) => write.outcome)).toEqual(['written']);
    const nodeAfter = await workload.json<{ metadata: { uid: string } }>(['get', 'node', targetHost]);
    expect(nodeAfter.metadata.uid).not.toBe(nodeBefore.metadata.uid);
    await expectNodeOf(replacement, { controlPlane: true, version: ROLLS_TO, providerIDSetBy: 'provider' });
    // The broken server's old member is gone and its new one joined: the same three names, one new ID.
    const survivor = hostOf(after.find((m) => hostOf(m) !== targetHost)!);
    const members = await withEtcdOn(survivor, (client) => listMembers(client));
    expect(members.map((m) => m.name).sort()).toEqual(after.map(hostOf).sort());
    expect(members.map((m) => m.ID)).not.toContain(leader.ID);
    await kubectl.ok(['delete', 'machinehealthchecks.cluster.x-k8s.io', healthCheck, '-n', namespace]);
  });

  it('an in-place Kubernetes upgrade, as CAPM3\'s in-place upgrade e2e runs one: KCP at three Machines gets the stack\'s version and a template with image 3, with maxSurge 0, and an update extension that can apply both; every Machine, server and etcd member stays, each server updated without re-imaging', async () => {
    const before = await kcpMachines();
    expect(before).toHaveLength(3);
    expect(before.map((m) => m.spec.version)).toEqual([ROLLS_TO, ROLLS_TO, ROLLS_TO]);
    const v2 = env.images[1]!;
    const v3 = env.images[2]!;
    const recordsBefore = new Map(await Promise.all(before.map(async (machine) => [machine.metadata.name, await records(systemOf(hostOf(machine)))] as const)));

    await withUpdateExtension('in-place-kcp', async (extension) => {
      const membersBefore = await withEtcdOn(hostOf(before[0]!), (client) => listMembers(client));
      await upgradeKcp({ suffix: 'v3', image: v3, version: UPDATES_IN_PLACE_TO, maxSurge: 0 });

      // KCP updates one Machine at a time; each is done once its Node runs the new version and image, with no update in progress.
      let last: Machine[] = [];
      await waitFor(async () => {
        last = await kcpMachines();
        if (last.length !== 3 || last.some((m) => m.spec.version !== UPDATES_IN_PLACE_TO || m.metadata.annotations?.[UPDATE_IN_PROGRESS] !== undefined)) return undefined;
        for (const machine of last) {
          const { nodeInfo } = (await workload.json<WorkloadNode>(['get', 'node', machine.status!.nodeRef!.name])).status;
          if (nodeInfo.kubeletVersion !== UPDATES_IN_PLACE_TO || nodeInfo.osImage !== osImageOf(v3.url)) return undefined;
        }
        return true;
      }, { timeoutMs: minutes(6), intervalMs: 1_000, what: `${KCP}'s Machines updated in place` }).catch((error: Error) => {
        throw new Error(`${error.message}; machines: ${JSON.stringify(last.map((m) => [m.metadata.name, m.spec.version, m.metadata.annotations?.[UPDATE_IN_PROGRESS]]))}; `
          + `extension calls: ${JSON.stringify(extension.calls)}`);
      });
      const after = await healthyControlPlane(3, `${KCP} healthy after the in-place upgrade`);

      // Cluster API's side: the same Machines, each asked about (a Machine and a Metal3Machine patch) and updated through the extension.
      expect(after.map((m) => m.metadata.uid).sort()).toEqual(before.map((m) => m.metadata.uid).sort());
      const asked = extension.calls.filter((call) => call.hook === 'CanUpdateMachine');
      expect([...new Set(asked.map((call) => call.object))].sort()).toEqual(qualifiedNames(before));
      expect(new Set(asked.map((call) => call.answer))).toEqual(new Set(['machinePatch,infrastructureMachinePatch']));
      expect(updatedByExtension(extension)).toEqual(qualifiedNames(before));
      for (const machine of after) {
        // Its Metal3Machine carries image 3 (KCP's patch); its host keeps image 2.
        await expectHostKept(machine, { metal3Machine: v3.url, host: v2.url });
        // The hardware's side: updated in place, never re-imaged or rebooted; its kubelet and static pods run the new version.
        await expectUpdatedInPlace(machine, recordsBefore.get(machine.metadata.name)!, { imageUrl: v3.url, kubeletVersion: UPDATES_IN_PLACE_TO });
        await expectNodeOf(machine, { controlPlane: true, version: UPDATES_IN_PLACE_TO, providerIDSetBy: 'provider' });
        const images = (await staticPodsOn(hostOf(machine))).flatMap((pod) => pod.spec.containers.map((container) => container.image)).sort();
        expect(images).toEqual(['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler']
          .map((component) => `registry.k8s.io/${component}${component === 'etcd' ? '' : `:${UPDATES_IN_PLACE_TO}`}`));
      }
      // etcd's side: the same three members, none removed or added.
      const membersAfter = await withEtcdOn(hostOf(after[0]!), (client) => listMembers(client));
      expect(membersAfter.map((m) => m.ID).sort()).toEqual(membersBefore.map((m) => m.ID).sort());
      expect(await kubeadmConfigVersion()).toBe(UPDATES_IN_PLACE_TO);
      await kcpReports(UPDATES_IN_PLACE_TO);
    });
  });

  it('node reuse, as CAPM3\'s node reuse e2e runs it for the control plane: KCP at three Machines rolled to a template with nodeReuse and maxSurge 0 while a fourth host is free; each Machine it deletes is replaced on the server it freed', async () => {
    const before = await kcpMachines();
    expect(before).toHaveLength(3);
    const servers = before.map(hostOf).sort();
    // The free host the provider would otherwise choose from: selected by KCP's template from now on.
    await kubectl.ok(['label', 'bmh', SPARE_HOST.name, '-n', namespace, '--overwrite', `role=${ROLE}`]);
    await waitFor(async () => (isFree(await host(SPARE_HOST.name)) ? true : undefined),
      { timeoutMs: minutes(4), intervalMs: 1_000, what: `${SPARE_HOST.name} to be available` });
    const rolled = new Date().toISOString();
    const v1 = env.images[0]!;
    // No update extension is registered now: KCP rolls by deleting a Machine, then making one (maxSurge stays 0).
    await upgradeKcp({ suffix: 'reuse', image: v1, version: UPDATES_IN_PLACE_TO, nodeReuse: true });

    let last: Machine[] = [];
    await waitFor(async () => {
      last = await kcpMachines();
      return last.length === 3 && last.every((m) => !before.some((old) => old.metadata.name === m.metadata.name)) ? true : undefined;
    }, { timeoutMs: minutes(12), intervalMs: 2_000, what: `${KCP} to replace all three Machines` }).catch((error: Error) => {
      throw new Error(`${error.message}; machines: ${JSON.stringify(last.map((m) => [m.metadata.name, hostOf(m), m.status?.phase]))}`);
    });
    const after = await healthyControlPlane(3, `${KCP} healthy after the rollout with node reuse`);

    // Each new Machine is on a server a deleted one freed, chosen for that reason, with the new image written and a control plane join.
    expect(after.map(hostOf).sort()).toEqual(servers);
    for (const machine of after) {
      const m3m = await kubectl.json<{ status?: { conditions?: Condition[] } }>(['get', 'm3m', machine.spec.infrastructureRef.name, '-n', namespace]);
      expect(m3m.status?.conditions?.find((c) => c.type === 'AssociateBareMetalHost'))
        .toMatchObject({ status: 'True', reason: 'AssociateBareMetalHostViaNodeReuseSuccess' });
      const hardware = await records(systemOf(hostOf(machine)));
      expect(hardware.imageWrites.filter((write) => write.at >= rolled).map((write) => [write.outcome, write.url])).toEqual([['written', v1.url]]);
      expect(kubeadmRuns(hardware.nodes, rolled)).toEqual([{ kind: 'kubeadm-succeeded', node: hostOf(machine), command: 'join', controlPlane: true }]);
      await expectNodeOf(machine, { controlPlane: true, version: UPDATES_IN_PLACE_TO, providerIDSetBy: 'provider' });
    }
    // The free host was never claimed nor written to.
    const spare = await host(SPARE_HOST.name);
    expect(spare.spec.consumerRef).toBeUndefined();
    expect(spare.status?.provisioning?.state).toBe('available');
    expect((await records(SPARE_HOST.system)).imageWrites.filter((write) => write.at >= fileStart)).toEqual([]);
    expect(await etcdMembersSeenFrom(hostOf(after[0]!))).toEqual(servers);
  }, minutes(15));

  it('kubectl scale kubeadmcontrolplane back to 1 removes two control plane Machines and etcd members; their hosts stay booked for the control plane (its template has node reuse)', async () => {
    const machines = await kcpMachines();
    expect(machines).toHaveLength(3);
    // maxSurge back to 1 first, as CAPM3's node reuse e2e does before it scales to one: KCP's webhook refuses maxSurge 0 below three replicas.
    await kubectl.ok(['patch', 'kubeadmcontrolplanes.controlplane.cluster.x-k8s.io', KCP, '-n', namespace, '--type=merge', '-p',
      JSON.stringify({ spec: { rollout: { strategy: { rollingUpdate: { maxSurge: 1 } } } } })]);
    await kubectl.ok(['scale', 'kubeadmcontrolplanes.controlplane.cluster.x-k8s.io', KCP, '-n', namespace, '--replicas=1']);
    const [kept] = await waitFor(async () => {
      const current = await kcpMachines();
      return current.length === 1 ? current : undefined;
    }, { timeoutMs: minutes(8), intervalMs: 1_000, what: `${KCP} scaled down to one Machine` });
    for (const removed of machines.filter((m) => m.metadata.name !== kept!.metadata.name)) await expectReleased(hostOf(removed), { bookedForReuse: true });
    await healthyControlPlane(1, `${KCP} healthy at one Machine`);
    expect(await etcdMembersSeenFrom(hostOf(kept!))).toEqual([hostOf(kept!)]);
  });
});
