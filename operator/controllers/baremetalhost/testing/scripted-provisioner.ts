import type { HardwareDetails } from '../../../api/hardware-details.ts';
import type { FirmwareComponentStatus } from '../../../api/hostfirmwarecomponents.ts';
import type { Image } from '../../../api/image.ts';
import type {
  AdoptOptions,
  BmcProblem,
  DataImageReading,
  EventSubscriptionRequest,
  DeleteOptions,
  DeprovisionOptions,
  FirmwareSettingsReading,
  HardwareState,
  FirmwareRefreshes,
  HostIdentity,
  InspectOptions,
  NodeHealth,
  PowerOptions,
  PrepareOptions,
  ProvisionOptions,
  Provisioner,
  RegisterOptions,
  ServiceOptions,
} from '../../../provisioner/provisioner.ts';
import { NeedsRegistrationError, busy, done, failed } from '../../../provisioner/result.ts';
import type { ProvisionerResult, RegisterResult } from '../../../provisioner/result.ts';

/** What the in-memory back end knows about one host. */
export interface ScriptedNode {
  id: string;
  poweredOn: boolean;
  /** What the BMC reports (Ironic's node health); tests set it. */
  health?: string;
  /** Why the BMC fails the back end, as the back end says; tests set it. */
  bmcProblem?: BmcProblem;
  image?: Image;
  inspected: boolean;
  /** Calls still to answer `busy` for the operation in progress. */
  pending: Partial<Record<string, number>>;
  /** The URL in the virtual CD (a DataImage), if any. */
  virtualMedia?: string;
}

export type Verb = keyof Provisioner;

/** A scripted answer: a result, or an error to throw (e.g. TransientProvisionerError). */
export type Scripted = ProvisionerResult<unknown> | RegisterResult | Error;

export interface ScriptedProvisionerOptions {
  /** `busy` answers before a long operation (inspect, provision, deprovision) completes. @default 0 */
  busyPolls?: number;
  /** Poll delay reported with `busy`. @default 10 */
  pollMs?: number;
  hardware?: HardwareDetails;
}

/** Canned inventory, like BMO's fixture: two NICs, a disk, 128 GiB of RAM. */
export const FIXTURE_HARDWARE: HardwareDetails = {
  systemVendor: { manufacturer: 'metal3-ts', productName: 'in-memory', serialNumber: 'fixture-0001' },
  ramMebibytes: 131072,
  cpu: { arch: 'x86_64', model: 'fixture CPU', count: 8, clockMegahertz: 2400 },
  nics: [
    { name: 'eth0', mac: '00:00:5e:00:53:01', ip: '192.0.2.10', pxe: true, speedGbps: 10 },
    { name: 'eth1', mac: '00:00:5e:00:53:02', ip: '192.0.2.11', pxe: false, speedGbps: 10 },
  ],
  storage: [{ name: '/dev/sda', sizeBytes: 500_107_862_016, type: 'SSD', rotational: false }],
  hostname: 'fixture',
};

const keyOf = (host: HostIdentity) => `${host.namespace}/${host.name}`;

/**
 * The controller's test double: a deterministic in-memory Provisioner whose answers can be
 * scripted per verb (`script`: any result, or an error such as TransientProvisionerError to
 * throw), with a happy path and `busyPolls` busy answers otherwise. Every call is recorded
 * with its options. The shared fixture (operator/provisioner/fixture) is what the operator
 * runs with; this one exists to steer handlers into each branch.
 */
export class ScriptedProvisioner implements Provisioner {
  readonly nodes = new Map<string, ScriptedNode>();
  readonly calls: Array<{ verb: Verb; options: unknown }> = [];
  readonly #scripts = new Map<Verb, Scripted[]>();
  readonly #busyPolls: number;
  readonly #pollMs: number;
  readonly #hardware: HardwareDetails;
  #nextId = 1;

  constructor(options: ScriptedProvisionerOptions = {}) {
    this.#busyPolls = options.busyPolls ?? 0;
    this.#pollMs = options.pollMs ?? 10;
    this.#hardware = options.hardware ?? FIXTURE_HARDWARE;
  }

  /** Queues answers for the next calls of `verb`, before the default behaviour resumes. */
  script(verb: Verb, ...answers: Scripted[]): this {
    this.#scripts.set(verb, [...(this.#scripts.get(verb) ?? []), ...answers]);
    return this;
  }

  callsOf(verb: Verb): unknown[] {
    return this.calls.filter((call) => call.verb === verb).map((call) => call.options);
  }

  nodeOf(host: Pick<HostIdentity, 'namespace' | 'name'>): ScriptedNode | undefined {
    return this.nodes.get(`${host.namespace}/${host.name}`);
  }

  #scripted<T>(verb: Verb, options: unknown): ProvisionerResult<T> | undefined {
    this.calls.push({ verb, options });
    const queue = this.#scripts.get(verb);
    const next = queue?.shift();
    if (next instanceof Error) throw next;
    return next as ProvisionerResult<T> | undefined;
  }

  #node(host: HostIdentity): ScriptedNode {
    const node = this.nodes.get(keyOf(host));
    if (!node) throw new NeedsRegistrationError(`no node for ${keyOf(host)}`);
    return node;
  }

  /** Answers busy until the operation's polls are used up, then runs `finish`. */
  #longOperation<T>(node: ScriptedNode, operation: string, finish: () => ProvisionerResult<T>): ProvisionerResult<T> {
    const remaining = node.pending[operation] ?? this.#busyPolls;
    if (remaining > 0) {
      node.pending[operation] = remaining - 1;
      return busy(this.#pollMs, `${operation} in progress`, { started: remaining === this.#busyPolls });
    }
    delete node.pending[operation];
    return finish();
  }

  async register(options: RegisterOptions): Promise<RegisterResult> {
    const scripted = this.#scripted<{ nodeId: string }>('register', options);
    if (scripted) return scripted;
    let node = this.nodes.get(keyOf(options.host));
    if (!node) {
      node = { id: `in-memory-${this.#nextId++}`, poweredOn: false, inspected: false, pending: {} };
      this.nodes.set(keyOf(options.host), node);
    }
    return done({ nodeId: node.id });
  }

  async inspect(options: InspectOptions): Promise<ProvisionerResult<{ hardware: HardwareDetails }>> {
    const scripted = this.#scripted<{ hardware: HardwareDetails }>('inspect', options);
    if (scripted) return scripted;
    const node = this.#node(options.host);
    if (options.refresh) node.inspected = false;
    if (node.inspected) return done({ hardware: structuredClone(this.#hardware) });
    return this.#longOperation(node, 'inspect', () => {
      node.inspected = true;
      return done({ hardware: structuredClone(this.#hardware) });
    });
  }

  async prepare(options: PrepareOptions): Promise<ProvisionerResult> {
    return this.#scripted('prepare', options) ?? done();
  }

  async service(options: ServiceOptions): Promise<ProvisionerResult> {
    return this.#scripted('service', options) ?? done();
  }

  async provision(options: ProvisionOptions): Promise<ProvisionerResult> {
    const scripted = this.#scripted<undefined>('provision', options);
    if (scripted) return scripted;
    const node = this.#node(options.host);
    if (!options.image && !options.customDeploy) return failed('nothing to deploy');
    return this.#longOperation(node, 'provision', () => {
      if (options.image) node.image = structuredClone(options.image);
      node.poweredOn = true;
      return done();
    });
  }

  async adopt(options: AdoptOptions): Promise<ProvisionerResult> {
    return this.#scripted('adopt', options) ?? done();
  }

  async deprovision(options: DeprovisionOptions): Promise<ProvisionerResult> {
    const scripted = this.#scripted<undefined>('deprovision', options);
    if (scripted) return scripted;
    const node = this.#node(options.host);
    return this.#longOperation(node, 'deprovision', () => {
      delete node.image;
      node.poweredOn = false;
      return done();
    });
  }

  async powerOn(options: PowerOptions): Promise<ProvisionerResult> {
    const scripted = this.#scripted<undefined>('powerOn', options);
    if (scripted) return scripted;
    this.#node(options.host).poweredOn = true;
    return done();
  }

  async powerOff(options: PowerOptions): Promise<ProvisionerResult> {
    const scripted = this.#scripted<undefined>('powerOff', options);
    if (scripted) return scripted;
    this.#node(options.host).poweredOn = false;
    return done();
  }

  async hardwareState(options: { host: HostIdentity }): Promise<HardwareState> {
    this.calls.push({ verb: 'hardwareState', options });
    const node = this.nodes.get(keyOf(options.host));
    return node ? { poweredOn: node.poweredOn } : {};
  }

  /** What the BMC's BIOS reports; tests set it. */
  firmware: FirmwareSettingsReading = { settings: {}, schema: {} };

  async firmwareSettings(options: { host: HostIdentity }): Promise<FirmwareSettingsReading> {
    this.calls.push({ verb: 'firmwareSettings', options });
    return structuredClone(this.firmware);
  }

  /** What the BMC reports of its firmware; tests set it. */
  components: FirmwareComponentStatus[] = [];

  async firmwareComponents(options: { host: HostIdentity }): Promise<FirmwareComponentStatus[]> {
    this.calls.push({ verb: 'firmwareComponents', options });
    return structuredClone(this.components);
  }

  async dataImageStatus(options: { host: HostIdentity }): Promise<ProvisionerResult<DataImageReading>> {
    const scripted = this.#scripted<DataImageReading>('dataImageStatus', options);
    if (scripted) return scripted;
    return done({ attached: this.#node(options.host).virtualMedia !== undefined });
  }

  async attachDataImage(options: { host: HostIdentity; url: string }): Promise<ProvisionerResult> {
    const scripted = this.#scripted<undefined>('attachDataImage', options);
    if (scripted) return scripted;
    this.#node(options.host).virtualMedia = options.url;
    return done();
  }

  async detachDataImage(options: { host: HostIdentity }): Promise<ProvisionerResult> {
    const scripted = this.#scripted<undefined>('detachDataImage', options);
    if (scripted) return scripted;
    delete this.#node(options.host).virtualMedia;
    return done();
  }

  async addEventSubscription(options: { host: HostIdentity; subscription: EventSubscriptionRequest }): Promise<ProvisionerResult<{ subscriptionId: string }>> {
    const scripted = this.#scripted<{ subscriptionId: string }>('addEventSubscription', options);
    return scripted ?? done({ subscriptionId: `subscription-${this.calls.length}` });
  }

  async removeEventSubscription(options: { host: HostIdentity; subscriptionId: string }): Promise<ProvisionerResult> {
    return this.#scripted<undefined>('removeEventSubscription', options) ?? done();
  }

  /** Read from the node's state with no call of its own, as the Ironic provisioner does. */
  health(options: { host: HostIdentity }): NodeHealth {
    return this.nodes.get(keyOf(options.host))?.health;
  }

  bmcProblem(options: { host: HostIdentity }): BmcProblem | undefined {
    return this.nodes.get(keyOf(options.host))?.bmcProblem;
  }

  /** Cannot tell: the firmware controllers read on every node or state change. */
  firmwareRefreshes(): FirmwareRefreshes {
    return {};
  }

  /** What a host at rest mirrors of each node, keyed by node id. */
  async nodeDigests(): Promise<ReadonlyMap<string, string>> {
    return new Map([...this.nodes.values()].map((node) => [node.id, JSON.stringify([node.poweredOn, node.health, node.bmcProblem])]));
  }

  lastNodeRead(): undefined {
    return undefined;
  }

  async delete(options: DeleteOptions): Promise<ProvisionerResult> {
    const scripted = this.#scripted<undefined>('delete', options);
    if (scripted) return scripted;
    this.nodes.delete(keyOf(options.host));
    return done();
  }

  async detach(options: DeleteOptions & { force: boolean }): Promise<ProvisionerResult> {
    const scripted = this.#scripted<undefined>('detach', options);
    if (scripted) return scripted;
    this.nodes.delete(keyOf(options.host));
    return done();
  }
}

/** Puts a node for `test/host-0`-style hosts in place, as a successful registration would. */
export function withNode(provisioner: ScriptedProvisioner, host: Pick<HostIdentity, 'namespace' | 'name'>, node: Partial<ScriptedNode> = {}): ScriptedNode {
  const created: ScriptedNode = { id: 'in-memory-1', poweredOn: false, inspected: false, pending: {}, ...node };
  provisioner.nodes.set(`${host.namespace}/${host.name}`, created);
  return created;
}
