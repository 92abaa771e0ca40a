import { renderUserData } from './cloud-init-jinja.ts';
import type { ConfigDriveContents } from './configdrive-contents.ts';
import { EtcdMember, type EtcdMemberOptions } from './etcd/etcd-member.ts';
import type { Inventory } from './inventory-types.ts';
import { controlPlanePods, kubeadmStep, kubernetesVersionOf, type ControlPlanePods, type KubeadmStep } from './kubeadm.ts';
import type { Logger } from './log.ts';
import { nodeIdentity, type NodeIdentity } from './node-identity.ts';
import type { NodeDeletionReason, RecordStore } from './records.ts';
import type { WorkloadNodes } from './workload-cluster.ts';

/** What the ramdisk left on the OS install disk. */
export interface WrittenImage {
  device: string;
  /** Where the image came from; its file name is the OS the kubelet reports (`nodeInfo.osImage`). */
  url: string | null;
  /** The Ironic node the ramdisk served when it wrote the image; asked about on power off. */
  nodeUuid: string | null;
  configDrive: ConfigDriveContents | undefined;
}

/** What the agent tells the server about its disks (the part of the hardware that outlives a boot). */
export interface DiskEvents {
  imageWritten(image: WrittenImage): void;
  wiped(device: string): void;
}

/**
 * Provision states in which a powered-off instance is still the host's OS: a power off by the
 * user (BareMetalHost `online: false`), a reboot, rescue or servicing. Any other state (deleting,
 * cleaning, available, deploying again...) means the host is being deprovisioned or rebuilt.
 */
const INSTANCE_KEPT_STATES = new Set([
  'active', 'rescuing', 'rescue wait', 'rescue', 'rescue failed', 'unrescuing', 'unrescue failed',
  'servicing', 'service wait', 'service hold', 'service failed',
]);

/** What the image's kubeadm step did; `controlPlane` is what a control plane node runs (undefined on a worker). */
interface KubeadmOutcome {
  ran: true;
  succeeded: boolean;
  controlPlane: ControlPlanePods | undefined;
  /** The cluster's Kubernetes version kubeadm set the node up for: its kubelet's. */
  kubernetesVersion: string | undefined;
}

/** An in-place update of the installed OS: the image whose content it now runs, and its kubelet's version (a control plane node's static pods' too). */
export interface InPlaceUpdate {
  imageUrl?: string;
  kubeletVersion?: string;
}

/** What the kubelet reports as `nodeInfo.osImage`: the image's file name (the simulated OS has no os-release). */
export function osImageOf(imageUrl: string): string {
  const path = URL.canParse(imageUrl) ? new URL(imageUrl).pathname : imageUrl;
  return path.split('/').filter(Boolean).at(-1) ?? imageUrl;
}

export interface InstalledOsOptions {
  systemUuid: string;
  systemName: string;
  inventory: Pick<Inventory, 'interfaces' | 'cpu'>;
  /** Absent without `workloadKubeconfig`: the disk is still tracked, no Node is ever made. */
  cluster: WorkloadNodes | undefined;
  /** Ironic's provision state of a node (the same read the ramdisk makes). */
  provisionState(nodeUuid: string): Promise<string | undefined>;
  records: RecordStore;
  logger: Logger;
  /** The etcd binary a control plane with stacked etcd runs; without it such a node runs no etcd (its Pod is only mirrored). */
  etcdBinary?: string | undefined;
}

/**
 * The operating system on one server's disk and, with a workload cluster, its kubelet: a
 * boot from a disk holding an image registers the Node; a power off while Ironic
 * deprovisions, a wipe of that disk or a new image deletes it. Cluster calls run one at a
 * time in order, so a deletion never overtakes the registration it undoes.
 */
export class InstalledOs implements DiskEvents {
  readonly #options: InstalledOsOptions;
  #disk: WrittenImage | undefined;
  /** The Node this OS registered (or is registering); undefined when none should exist. */
  #node: string | undefined;
  #queue: Promise<void> = Promise.resolve();
  /** False: the OS boots but its kubelet never comes up, so no Node is registered (a test's broken server). */
  #healthy = true;
  /**
   * cloud-init's kubeadm step for the image on the disk: not run until the image's first boot
   * (nor ever when the user data runs none); it runs once per image, as runcmd does.
   */
  #kubeadm: { ran: false } | KubeadmOutcome = { ran: false };
  /** The etcd member kubeadm started on this control plane node (stacked etcd). */
  #etcd: EtcdMember | undefined;
  /** What in-place updates changed since the image was written: the OS's content (an image's URL) and the kubelet's version. */
  #updatedInPlace: InPlaceUpdate = {};

  constructor(options: InstalledOsOptions) {
    this.#options = options;
  }

  /** The registered Node's name, for GET /systems. */
  get nodeName(): string | null {
    return this.#node ?? null;
  }

  get hasImage(): boolean {
    return this.#disk !== undefined;
  }

  imageWritten(image: WrittenImage): void {
    this.#retire('image-replaced');
    // cloud-init renders Jinja user data against the instance data before it reads it.
    const configDrive = image.configDrive && { ...image.configDrive, userData: renderUserData(image.configDrive.userData, image.configDrive.metaData) };
    this.#disk = { ...image, configDrive };
    this.#kubeadm = { ran: false };
    this.#updatedInPlace = {};
  }

  /**
   * What an in-place update extension does on the server (CAPM3's e2e one runs its commands over
   * SSH): the installed OS takes a new image's content and the kubelet a new version, with no
   * re-imaging and no reboot; the kubelet then reports them on its Node. Kept across reboots,
   * until a new image is written. Undefined when there is no installed OS to update.
   */
  updateInPlace(update: InPlaceUpdate): { node: string | null } | undefined {
    if (this.#disk === undefined) return undefined;
    this.#updatedInPlace = { ...this.#updatedInPlace, ...update };
    const node = this.#node ?? null;
    this.#options.records.addNode(this.#options.systemUuid, { kind: 'updated-in-place', node, ...update });
    this.#log('info', 'updated in place', { node, ...update });
    const { cluster } = this.#options;
    if (node !== null && cluster !== undefined && this.#healthy) {
      const { identity } = this.#kubeletSetup(this.#disk);
      this.#enqueue(() => this.#register(cluster, identity, this.#kubeadm.ran ? this.#kubeadm : undefined));
    }
    return { node };
  }

  /** The image's kubeadm step, if any, and the Node its kubelet registers as (the name and labels kubeadm gave it, on every boot). */
  #kubeletSetup(disk: WrittenImage): { step: KubeadmStep | undefined; identity: NodeIdentity } {
    const step = kubeadmStep(disk.configDrive?.userData);
    const kubelet = step === undefined || 'invalid' in step ? undefined : step.kubelet;
    return { step, identity: nodeIdentity({ configDrive: disk.configDrive, systemName: this.#options.systemName, inventory: this.#options.inventory, kubelet }) };
  }

  wiped(device: string): void {
    if (this.#disk?.device !== device) return;
    this.#disk = undefined;
    this.#kubeadm = { ran: false };
    this.#updatedInPlace = {};
    this.#retire('disk-wiped');
  }

  get healthy(): boolean {
    return this.#healthy;
  }

  /** From the next boot on, the kubelet registers the Node Ready (healthy) or does not start at all; the Node as it is now is left alone. */
  setHealthy(healthy: boolean): void {
    this.#healthy = healthy;
    this.#log('info', healthy ? 'OS repaired: the next boot registers the Node' : 'OS broken: boots register no Node', {});
  }

  /**
   * The server came up from its disk: on the image's first boot cloud-init runs its kubeadm step
   * if the user data has one; then the kubelet (re)registers the Node, Ready with a fresh
   * heartbeat, unless the OS is broken or kubeadm failed.
   */
  bootedFromDisk(): void {
    const { cluster } = this.#options;
    if (this.#disk === undefined || cluster === undefined) return;
    const { step, identity } = this.#kubeletSetup(this.#disk);
    if (this.#node !== undefined && this.#node !== identity.name) this.#retire('image-replaced');
    this.#node = identity.name;
    if (!this.#healthy) {
      this.#options.records.addNode(this.#options.systemUuid, { kind: 'node-not-registered', node: identity.name, reason: 'os-broken' });
      this.#log('info', 'OS broken: no Node registered', { node: identity.name });
      return;
    }
    const disk = this.#disk;
    this.#enqueue(async () => {
      if (!this.#kubeadm.ran) {
        const outcome = step === undefined ? undefined : await this.#runKubeadm(cluster, identity.name, step);
        // A new image written meanwhile starts afresh.
        if (outcome !== undefined && this.#disk === disk) this.#kubeadm = outcome;
      }
      if (this.#kubeadm.ran && !this.#kubeadm.succeeded) {
        // The kubelet never joined, so there is no Node to delete later either.
        if (this.#node === identity.name) this.#node = undefined;
        this.#options.records.addNode(this.#options.systemUuid, { kind: 'node-not-registered', node: identity.name, reason: 'kubeadm-failed' });
        return;
      }
      await this.#register(cluster, identity, this.#kubeadm.ran ? this.#kubeadm : undefined);
    });
  }

  /**
   * What the kubeadm step does to the workload cluster: `init` uploads its ClusterConfiguration
   * (Cluster API's control plane provider reads that as "initialized") and applies the kube-proxy
   * addon; `join` is let in only with a bootstrap token the cluster holds (Cluster API's kubeadm
   * bootstrap provider makes it), and a control plane join needs the cluster's
   * ClusterConfiguration. A control plane node then runs the static pods that configuration asks for.
   */
  async #runKubeadm(cluster: WorkloadNodes, node: string, step: KubeadmStep): Promise<KubeadmOutcome> {
    const { systemUuid, records } = this.#options;
    const failed = (error: string) => {
      records.addNode(systemUuid, { kind: 'kubeadm-failed', node, command: step.command, controlPlane: step.controlPlane, error });
      this.#log('warn', `kubeadm ${step.command} failed`, { node, error });
      return { ran: true as const, succeeded: false, controlPlane: undefined, kubernetesVersion: undefined };
    };
    let controlPlane: ControlPlanePods | undefined;
    let clusterConfiguration: string;
    try {
      if ('invalid' in step) return failed(step.invalid);
      if (step.command === 'init') {
        clusterConfiguration = step.clusterConfiguration;
        // kubeadm starts the local etcd before the API server that takes the uploaded configuration.
        controlPlane = await this.#startEtcd(cluster, node, step,
          controlPlanePods(clusterConfiguration, { apiServerBindPort: step.apiServerBindPort }));
        await cluster.uploadKubeadmConfig(clusterConfiguration);
        if (step.kubeProxy) await cluster.deployKubeProxy({ imageRepository: controlPlane.imageRepository, kubernetesVersion: controlPlane.kubernetesVersion });
      } else if (step.token === undefined) {
        return failed('the JoinConfiguration has no bootstrap token');
      } else if (!(await cluster.bootstrapTokenValid(step.token))) {
        return failed(`bootstrap token ${step.token.id} is not valid in the cluster`);
      } else {
        // Every join, worker or control plane, reads the cluster's configuration first.
        const read = await cluster.readClusterConfiguration();
        if (read === undefined) return failed('the cluster has no kubeadm-config ConfigMap with a ClusterConfiguration');
        clusterConfiguration = read;
        if (step.controlPlane) {
          controlPlane = await this.#startEtcd(cluster, node, step, controlPlanePods(clusterConfiguration, { apiServerBindPort: step.apiServerBindPort }));
        }
      }
    } catch (error) {
      await this.#stopEtcd();
      return failed((error as Error).message);
    }
    records.addNode(systemUuid, { kind: 'kubeadm-succeeded', node, command: step.command, controlPlane: step.controlPlane });
    this.#log('info', `kubeadm ${step.command} succeeded`, { node, controlPlane: step.controlPlane });
    return { ran: true, succeeded: true, controlPlane, kubernetesVersion: kubernetesVersionOf(clusterConfiguration) };
  }

  /**
   * A control plane with stacked etcd runs an etcd member (with an etcd binary to run): the first
   * one (`init`) starts a new cluster, a joining one is added through a member the cluster's etcd
   * Pods advertise, as kubeadm finds them.
   */
  async #startEtcd(cluster: WorkloadNodes, node: string, step: Exclude<KubeadmStep, { invalid: string }>,
    pods: ControlPlanePods): Promise<ControlPlanePods> {
    const binary = this.#options.etcdBinary;
    if (!pods.components.includes('etcd') || binary === undefined) return pods;
    if (step.etcdCa === undefined) throw new Error('the bootstrap data has no etcd CA (/etc/kubernetes/pki/etcd/ca.crt and ca.key)');
    let membership: EtcdMemberOptions['cluster'] = { kind: 'new' };
    if (step.command === 'join') {
      const memberClientUrls = await cluster.etcdClientUrls();
      if (memberClientUrls.length === 0) throw new Error('no etcd member to join: no etcd Pod in kube-system advertises a client URL');
      membership = { kind: 'join', memberClientUrls };
    }
    await this.#stopEtcd();
    const member = await EtcdMember.start({ binary, node, ca: step.etcdCa, cluster: membership, logger: this.#options.logger });
    this.#etcd = member;
    return { ...pods, etcdClientUrl: member.clientUrl };
  }

  async #stopEtcd(): Promise<void> {
    const member = this.#etcd;
    this.#etcd = undefined;
    await member?.stop();
  }

  /** Simulator shutdown: the processes this OS runs stop. */
  async shutdown(): Promise<void> {
    await this.#stopEtcd();
  }

  /** The power went off (not a restart): gone for good only if Ironic is deprovisioning the host. */
  poweredOff(): void {
    const node = this.#node;
    const nodeUuid = this.#disk?.nodeUuid ?? null;
    if (node === undefined || this.#options.cluster === undefined) return;
    if (nodeUuid === null) {
      this.#log('warn', 'powered off with no Ironic node known for the installed OS; keeping its Node', { node });
      return;
    }
    this.#enqueue(async () => {
      if (this.#node !== node) return;
      let state: string | undefined;
      try {
        state = await this.#options.provisionState(nodeUuid);
      } catch (error) {
        // A later wipe or image write still removes the Node.
        this.#log('warn', 'could not read the provision state on power off; keeping the Node', { node, error: (error as Error).message });
        return;
      }
      if (state !== undefined && INSTANCE_KEPT_STATES.has(state)) {
        this.#log('info', 'powered off, instance kept', { node, provisionState: state });
        return;
      }
      if (this.#node !== node) return;
      this.#node = undefined;
      await this.#delete(node, 'powered-off-for-deprovisioning');
    });
  }

  /** Resolves once every queued cluster call has finished (tests, shutdown). */
  settled(): Promise<void> {
    return this.#queue;
  }

  #retire(reason: NodeDeletionReason): void {
    const node = this.#node;
    if (node === undefined) return;
    this.#node = undefined;
    this.#enqueue(() => this.#delete(node, reason));
  }

  #enqueue(task: () => Promise<void>): void {
    // Every task reports its own failures, so the chain never rejects.
    this.#queue = this.#queue.then(task).catch((error: unknown) => {
      this.#log('error', 'installed OS task failed', { error: (error as Error).message });
    });
  }

  async #register(cluster: WorkloadNodes, identity: NodeIdentity, kubeadm: KubeadmOutcome | undefined): Promise<void> {
    if (this.#node !== identity.name) return;
    const { systemUuid, records } = this.#options;
    let providerID: string | null;
    try {
      const kubeletVersion = this.#updatedInPlace.kubeletVersion ?? kubeadm?.kubernetesVersion;
      const imageUrl = this.#updatedInPlace.imageUrl ?? this.#disk?.url ?? null;
      // An in-place Kubernetes upgrade moves a control plane node's static pods with its kubelet, as `kubeadm upgrade node` does.
      const controlPlane = kubeadm?.controlPlane === undefined ? undefined
        : { ...kubeadm.controlPlane, kubernetesVersion: this.#updatedInPlace.kubeletVersion ?? kubeadm.controlPlane.kubernetesVersion };
      providerID = await cluster.register({ ...identity, systemUuid, architecture: this.#options.inventory.cpu.architecture,
        ...(imageUrl === null ? {} : { osImage: osImageOf(imageUrl) }),
        ...(controlPlane === undefined ? {} : { controlPlane }),
        ...(kubeletVersion === undefined ? {} : { kubeletVersion }) });
    } catch (error) {
      records.addNode(systemUuid, { kind: 'node-registration-failed', node: identity.name, error: (error as Error).message });
      this.#log('warn', 'could not register the Node', { node: identity.name, error: (error as Error).message });
      return;
    }
    const addresses = [identity.internalIp, identity.name];
    records.addNode(systemUuid, { kind: 'node-registered', node: identity.name, uuid: identity.uuid, providerID, addresses });
    this.#log('info', 'Node registered', { node: identity.name, uuid: identity.uuid, nameSource: identity.nameSource,
      ...(identity.providerID === null ? {} : { providerID: providerID ?? `kept the Node's (--provider-id ${identity.providerID})` }) });
  }

  async #delete(node: string, reason: NodeDeletionReason): Promise<void> {
    // The OS that ran the member is gone; a member still listed stays in etcd's cluster, unreachable.
    await this.#stopEtcd();
    const { systemUuid, records, cluster } = this.#options;
    if (cluster === undefined) return;
    try {
      await cluster.delete(node);
    } catch (error) {
      records.addNode(systemUuid, { kind: 'node-deletion-failed', node, error: (error as Error).message });
      this.#log('warn', 'could not delete the Node', { node, reason, error: (error as Error).message });
      return;
    }
    records.addNode(systemUuid, { kind: 'node-deleted', node, reason });
    this.#log('info', 'Node deleted', { node, reason });
  }

  #log(level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown>): void {
    this.#options.logger.log(level, message, { systemUuid: this.#options.systemUuid, ...fields });
  }
}
