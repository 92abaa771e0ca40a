import { workloadKubeconfigSecret } from '../capi/index.ts';
import type { StackEnv } from '../stack/state.ts';
import { INFRA_API_VERSION } from './sample-cluster.ts';

// A workload cluster with a ClusterClass, shaped as CAPM3's examples/templates/clusterclass.yaml:
// the kubeadm control plane and bootstrap providers over Metal3 templates, the endpoint, the
// images and each role's Metal3DataTemplate given as the Cluster's variables and patched into the
// templates (one image variable per role, so the workers can move to a new image while the
// control plane stays).

const CAPI_API_VERSION = 'cluster.x-k8s.io/v1beta2';
const KCP_API_VERSION = 'controlplane.cluster.x-k8s.io/v1beta2';
const BOOTSTRAP_API_VERSION = 'bootstrap.cluster.x-k8s.io/v1beta2';
/** The worker MachineDeployment class and the topology's one MachineDeployment of it. */
export const WORKER_CLASS = 'worker';
export const WORKER_TOPOLOGY_NAME = 'md-0';
/** The Cluster's variables for each role's OS image (`{ url, checksum }`, sha256). */
export const CONTROL_PLANE_IMAGE = 'controlPlaneImage';
export const WORKER_IMAGE = 'workerImage';
/** The Cluster's variables naming each role's Metal3DataTemplate (as CAPM3's example ClusterClass). */
export const CONTROL_PLANE_DATA_TEMPLATE = 'controlPlaneDataTemplate';
export const WORKER_DATA_TEMPLATE = 'workerDataTemplate';
/**
 * What CAPM3's e2e ClusterClass sets each kubelet up with: the Node labelled with the
 * BareMetalHost's UID, by which CAPM3 finds the host's Node, and created with the providerID the
 * Metal3DataTemplate renders into the meta data (`metal3://<namespace>/<host>/<Metal3Machine>`,
 * CAPM3's PROVIDER_ID_FORMAT), so CAPM3 finds it already set. Unlike CAPM3's e2e, the Node is
 * named after the host (BMO's local_hostname), not the Machine: a server's Node name stays the
 * same across the Machines it serves.
 */
const NODE_REGISTRATION = {
  name: '{{ ds.meta_data.local_hostname }}',
  kubeletExtraArgs: [
    { name: 'node-labels', value: 'metal3.io/uuid={{ ds.meta_data.uuid }}' },
    { name: 'provider-id', value: 'metal3://{{ ds.meta_data.providerid }}' },
  ],
};

export interface SampleClusterClassOptions {
  namespace: string;
  /** Names the ClusterClass; its templates are named after it. */
  name: string;
  /** Labels core Cluster API (and the kubeadm providers) are scoped by (`cluster.x-k8s.io/watch-filter`). */
  watchLabels: Record<string, string>;
  /** Host labels each role's machines choose from. */
  controlPlaneHostSelector: Record<string, string>;
  workerHostSelector: Record<string, string>;
}

const templateRef = (apiVersion: string, kind: string, name: string) => ({ apiVersion, kind, name });

/** The ClusterClass and the templates it names. */
export function sampleClusterClassObjects(options: SampleClusterClassOptions): Record<string, unknown>[] {
  const { namespace, name } = options;
  const machineTemplate = (role: string, hostSelector: Record<string, string>) => ({
    apiVersion: INFRA_API_VERSION, kind: 'Metal3MachineTemplate', metadata: { name: `${name}-${role}`, namespace },
    spec: { template: { spec: {
      // Replaced by the image variable (the patches below); the schema needs a value here.
      image: { url: 'http://127.0.0.1/replaced-by-a-patch.img', checksum: 'replaced-by-a-patch', checksumType: 'sha256', diskFormat: 'raw' },
      dataTemplate: { name: 'replaced-by-a-patch' },
      hostSelector: { matchLabels: hostSelector },
      // Released hosts go straight back to the pool; the operator's own tests cover cleaning.
      automatedCleaningMode: 'disabled',
    } } },
  });
  const imagePatch = (variable: string, matchResources: Record<string, unknown>) => ({
    selector: { apiVersion: INFRA_API_VERSION, kind: 'Metal3MachineTemplate', matchResources },
    jsonPatches: ['url', 'checksum'].map((field) => ({
      op: 'replace', path: `/spec/template/spec/image/${field}`, valueFrom: { variable: `${variable}.${field}` },
    })),
  });
  const dataTemplatePatch = (variable: string, matchResources: Record<string, unknown>) => ({
    selector: { apiVersion: INFRA_API_VERSION, kind: 'Metal3MachineTemplate', matchResources },
    jsonPatches: [{ op: 'replace', path: '/spec/template/spec/dataTemplate/name', valueFrom: { variable } }],
  });
  const imageVariable = (name: string) => ({ name, required: true, schema: { openAPIV3Schema: { type: 'object', required: ['url', 'checksum'],
    properties: { url: { type: 'string' }, checksum: { type: 'string' } } } } });
  const dataTemplateVariable = (name: string) => ({ name, required: true, schema: { openAPIV3Schema: { type: 'string', minLength: 1 } } });
  return [
    { apiVersion: INFRA_API_VERSION, kind: 'Metal3ClusterTemplate', metadata: { name, namespace },
      spec: { template: { spec: { controlPlaneEndpoint: { host: '127.0.0.1', port: 6443 } } } } },
    { apiVersion: KCP_API_VERSION, kind: 'KubeadmControlPlaneTemplate', metadata: { name: `${name}-control-plane`, namespace },
      spec: { template: { spec: { kubeadmConfigSpec: {
        initConfiguration: { nodeRegistration: NODE_REGISTRATION },
        joinConfiguration: { controlPlane: {}, nodeRegistration: NODE_REGISTRATION },
      } } } } },
    machineTemplate('control-plane', options.controlPlaneHostSelector),
    machineTemplate(WORKER_CLASS, options.workerHostSelector),
    { apiVersion: BOOTSTRAP_API_VERSION, kind: 'KubeadmConfigTemplate', metadata: { name: `${name}-${WORKER_CLASS}`, namespace },
      spec: { template: { spec: { joinConfiguration: { nodeRegistration: NODE_REGISTRATION } } } } },
    { apiVersion: CAPI_API_VERSION, kind: 'ClusterClass', metadata: { name, namespace, labels: options.watchLabels },
      spec: {
        variables: [
          { name: 'controlPlaneEndpoint', required: true, schema: { openAPIV3Schema: { type: 'object', required: ['host', 'port'],
            properties: { host: { type: 'string' }, port: { type: 'integer' } } } } },
          imageVariable(CONTROL_PLANE_IMAGE),
          imageVariable(WORKER_IMAGE),
          dataTemplateVariable(CONTROL_PLANE_DATA_TEMPLATE),
          dataTemplateVariable(WORKER_DATA_TEMPLATE),
        ],
        patches: [
          { name: 'controlPlaneEndpoint', definitions: [{
            selector: { apiVersion: INFRA_API_VERSION, kind: 'Metal3ClusterTemplate', matchResources: { infrastructureCluster: true } },
            jsonPatches: [{ op: 'replace', path: '/spec/template/spec/controlPlaneEndpoint', valueFrom: { variable: 'controlPlaneEndpoint' } }],
          }] },
          { name: 'images', definitions: [
            imagePatch(CONTROL_PLANE_IMAGE, { controlPlane: true }),
            imagePatch(WORKER_IMAGE, { machineDeploymentClass: { names: [WORKER_CLASS] } }),
          ] },
          { name: 'dataTemplates', definitions: [
            dataTemplatePatch(CONTROL_PLANE_DATA_TEMPLATE, { controlPlane: true }),
            dataTemplatePatch(WORKER_DATA_TEMPLATE, { machineDeploymentClass: { names: [WORKER_CLASS] } }),
          ] },
        ],
        infrastructure: { templateRef: templateRef(INFRA_API_VERSION, 'Metal3ClusterTemplate', name) },
        controlPlane: {
          templateRef: templateRef(KCP_API_VERSION, 'KubeadmControlPlaneTemplate', `${name}-control-plane`),
          machineInfrastructure: { templateRef: templateRef(INFRA_API_VERSION, 'Metal3MachineTemplate', `${name}-control-plane`) },
        },
        workers: { machineDeployments: [{
          class: WORKER_CLASS,
          bootstrap: { templateRef: templateRef(BOOTSTRAP_API_VERSION, 'KubeadmConfigTemplate', `${name}-${WORKER_CLASS}`) },
          infrastructure: { templateRef: templateRef(INFRA_API_VERSION, 'Metal3MachineTemplate', `${name}-${WORKER_CLASS}`) },
        }] },
      } },
  ];
}

export interface SampleTopologyClusterOptions {
  env: StackEnv;
  namespace: string;
  name: string;
  className: string;
  watchLabels: Record<string, string>;
  /** The Kubernetes version of the topology (the control plane's and the workers'). */
  version: string;
  workerReplicas: number;
}

/**
 * A Cluster of the class, one control plane machine and the workers' MachineDeployment, and each
 * role's Metal3DataTemplate (CAPM3's e2e names them `<cluster>-controlplane-template` and
 * `<cluster>-workers-template`; their meta data gives the machine's name, and always the
 * `providerid` the kubelets are started with); the endpoint is the stack's workload API server,
 * which the `<cluster>-kubeconfig` Secret (made here first, so the control plane provider keeps
 * it instead of minting one for its own CA) lets Cluster API and the kubeadm providers reach.
 */
export function sampleTopologyClusterObjects(options: SampleTopologyClusterOptions): Record<string, unknown>[] {
  const { env, namespace, name, watchLabels } = options;
  const image = env.images[0]!;
  const dataTemplate = (templateName: string) => ({ apiVersion: INFRA_API_VERSION, kind: 'Metal3DataTemplate', metadata: { name: templateName, namespace },
    spec: { clusterName: name, metaData: { objectNames: [{ key: 'name', object: 'machine' }] } } });
  return [
    { ...workloadKubeconfigSecret(env, name, namespace) },
    dataTemplate(`${name}-controlplane-template`),
    dataTemplate(`${name}-workers-template`),
    { apiVersion: CAPI_API_VERSION, kind: 'Cluster', metadata: { name, namespace, labels: watchLabels },
      spec: { topology: {
        classRef: { name: options.className },
        version: options.version,
        controlPlane: { replicas: 1, metadata: { labels: watchLabels } },
        workers: { machineDeployments: [
          { class: WORKER_CLASS, name: WORKER_TOPOLOGY_NAME, replicas: options.workerReplicas, metadata: { labels: watchLabels } },
        ] },
        variables: [
          { name: 'controlPlaneEndpoint', value: { host: '127.0.0.1', port: Number(new URL(env.workload.apiServerUrl).port) } },
          { name: CONTROL_PLANE_IMAGE, value: { url: image.url, checksum: image.sha256 } },
          { name: WORKER_IMAGE, value: { url: image.url, checksum: image.sha256 } },
          { name: CONTROL_PLANE_DATA_TEMPLATE, value: `${name}-controlplane-template` },
          { name: WORKER_DATA_TEMPLATE, value: `${name}-workers-template` },
        ],
      } } },
  ];
}
