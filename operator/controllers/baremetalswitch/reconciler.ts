// BMO's BareMetalSwitchReconciler (IRONIC_NETWORKING_ENABLED): every pass writes the switch
// configuration of the switch's namespace from all of its BareMetalSwitches into the Secret
// Ironic's networking service reads, and the SSH keys of key-authenticated switches into the
// credentials Secret mounted beside it; the switch's Valid condition says whether it made it in.
import { BareMetalSwitchResource, SWITCH_CONDITIONS, SWITCH_REASONS, bareMetalSwitchSchema } from '../../api/baremetalswitch.ts';
import type { BareMetalSwitch } from '../../api/baremetalswitch.ts';
import { setCondition } from '../../runtime/conditions.ts';
import type { Condition } from '../../runtime/conditions.ts';
import type { EventRecorder } from '../../runtime/event-recorder.ts';
import type { Informer } from '../../runtime/informer.ts';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import type { Logger } from '../../runtime/logger.ts';
import { safeParseCached } from '../../runtime/parse-cached.ts';
import type { ReconcileContext, Reconciler, Request, Result } from '../../runtime/reconciler.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { patchStatus } from '../../runtime/status.ts';
import type { SecretStore } from '../../secrets/index.ts';
import { KeyedTurns } from './keyed-turns.ts';
import { SWITCH_CONFIG_KEY, keyFileName, loginFromSecret, specProblem, switchConfigFile, switchSection } from './switch-config.ts';
import type { LoginResult, SwitchProblem } from './switch-config.ts';

/** BMO's wait before looking again for a credentials or output Secret that does not exist (nothing watches for its creation). */
export const MISSING_SECRET_RETRY_MS = 10_000;

export interface SwitchSecretNames {
  /** IRONIC_SWITCH_CONFIGS_SECRET: gets the INI file under `switch-configs.conf`. */
  configSecretName: string;
  /** IRONIC_SWITCH_CREDENTIALS_SECRET: gets one `<mac>.key` per key-authenticated switch. */
  credentialsSecretName: string;
  /** IRONIC_SWITCH_CREDENTIALS_PATH: where that Secret is mounted for Ironic, for the key_file lines. */
  credentialsPath: string;
}

export interface BareMetalSwitchReconcilerOptions {
  switches: { client: ResourceClient<KubeObject>; cache: Pick<Informer<KubeObject>, 'list'> };
  secrets: Pick<SecretStore, 'claim' | 'replaceData'>;
  names: SwitchSecretNames;
  events: EventRecorder;
}

/** What a pass found for one switch: in the file, or left out and why (retried when a Secret may yet appear). */
type Verdict = { valid: true } | { valid: false; reason: string; message: string; retry: boolean };

const RECONCILED_MESSAGE = 'Switch configuration has been successfully reconciled into the config secret';

export class BareMetalSwitchReconciler implements Reconciler {
  readonly #options: BareMetalSwitchReconcilerOptions;
  // Passes for switches of one namespace write the same two Secrets: one at a time, so they never conflict.
  readonly #turns = new KeyedTurns();

  constructor(options: BareMetalSwitchReconcilerOptions) {
    this.#options = options;
  }

  async reconcile(request: Request, { log, signal }: ReconcileContext): Promise<Result> {
    const namespace = request.namespace ?? '';
    return this.#turns.run(namespace, async () => {
      const switches = this.#switchesIn(namespace, log);
      const verdicts = await this.#writeConfiguration(namespace, switches, { log, signal });
      const requested = switches.find((candidate) => candidate.metadata.name === request.name);
      if (!requested) return {};
      const verdict = verdicts.get(request.name) ?? { valid: true };
      await this.#recordVerdict(requested, verdict, { log, signal });
      return !verdict.valid && verdict.retry ? { requeueAfter: MISSING_SECRET_RETRY_MS } : {};
    });
  }

  #switchesIn(namespace: string, log: Logger): BareMetalSwitch[] {
    const switches: BareMetalSwitch[] = [];
    for (const object of this.#options.switches.cache.list(namespace)) {
      const parsed = safeParseCached(bareMetalSwitchSchema, object);
      if (parsed.success) switches.push(parsed.data);
      else log.error('BareMetalSwitch does not match its schema; left out of the switch configuration', { switch: object.metadata.name, error: parsed.error.message });
    }
    return switches;
  }

  /** Writes both Secrets; every switch's verdict, and the output Secrets' problem for all of them when one is missing. */
  async #writeConfiguration(namespace: string, switches: BareMetalSwitch[], { log, signal }: Pick<ReconcileContext, 'log' | 'signal'>): Promise<Map<string, Verdict>> {
    const verdicts = new Map<string, Verdict>();
    const sections = new Map<string, string>();
    const keyFiles: Record<string, string> = {};
    for (const bareMetalSwitch of switches) {
      const name = bareMetalSwitch.metadata.name ?? '';
      const result = await this.#login(bareMetalSwitch, signal);
      if (!result.ok) {
        verdicts.set(name, problemVerdict(result.problem));
        log.info('switch left out of the switch configuration', { switch: name, problem: result.problem.message });
        continue;
      }
      const { login } = result;
      sections.set(name, switchSection(bareMetalSwitch, login, { credentialsPath: this.#options.names.credentialsPath }));
      if ('sshPrivateKeyBase64' in login) keyFiles[keyFileName(bareMetalSwitch.spec.macAddress)] = login.sshPrivateKeyBase64;
      verdicts.set(name, { valid: true });
    }
    const { configSecretName, credentialsSecretName } = this.#options.names;
    const configData = { [SWITCH_CONFIG_KEY]: Buffer.from(switchConfigFile(sections), 'utf8').toString('base64') };
    const missing = [
      ...((await this.#options.secrets.replaceData({ namespace, name: configSecretName }, configData, { signal })) ? [] : [`${namespace}/${configSecretName} (IRONIC_SWITCH_CONFIGS_SECRET)`]),
      ...((await this.#options.secrets.replaceData({ namespace, name: credentialsSecretName }, keyFiles, { signal })) ? [] : [`${namespace}/${credentialsSecretName} (IRONIC_SWITCH_CREDENTIALS_SECRET)`]),
    ];
    if (missing.length === 0) return verdicts;
    const message = `switch configuration not written: ${missing.map((secret) => `Secret ${secret} not found`).join('; ')} (the deployment of Ironic's networking service provides them)`;
    log.error('switch configuration not written', { namespace, missing });
    return new Map(switches.map((bareMetalSwitch) => [bareMetalSwitch.metadata.name ?? '', { valid: false, reason: SWITCH_REASONS.configSecretError, message, retry: true }]));
  }

  /** The switch's login from its credentials Secret, claimed (label, owner reference) so an edit of it wakes the switch. */
  async #login(bareMetalSwitch: BareMetalSwitch, signal: AbortSignal): Promise<LoginResult | { ok: false; problem: SwitchProblem & { retry: boolean } }> {
    const invalid = specProblem(bareMetalSwitch);
    if (invalid) return { ok: false, problem: invalid };
    const reference = bareMetalSwitch.spec.credentials;
    const ownNamespace = bareMetalSwitch.metadata.namespace ?? '';
    if (!reference?.name) return { ok: false, problem: { reason: 'credentials', message: 'credentials secret reference is not set' } };
    const secretName: ObjectName = { namespace: reference.namespace || ownNamespace, name: reference.name };
    if (secretName.namespace !== ownNamespace) {
      // An owner reference cannot cross namespaces (BMO fails the whole namespace's configuration here).
      return { ok: false, problem: { reason: 'credentials', message: `credentials secret ${secretName.namespace}/${secretName.name} must be in the switch's namespace ${ownNamespace}` } };
    }
    const owner = { kind: BareMetalSwitchResource.kind, name: bareMetalSwitch.metadata.name ?? '', uid: bareMetalSwitch.metadata.uid ?? '' };
    const secret = await this.#options.secrets.claim(secretName, { owner, finalizer: false, signal });
    if (!secret) return { ok: false, problem: { reason: 'credentials', message: `credentials secret ${secretName.namespace}/${secretName.name} not found`, retry: true } };
    return loginFromSecret(secretName.name, secret.data ?? {});
  }

  /** The Valid condition, written when it changes; a new problem is also a Warning event. */
  async #recordVerdict(bareMetalSwitch: BareMetalSwitch, verdict: Verdict, { log, signal }: Pick<ReconcileContext, 'log' | 'signal'>): Promise<void> {
    const before = (bareMetalSwitch.status?.conditions ?? []) as Condition[];
    const generation = bareMetalSwitch.metadata.generation;
    const conditions = setCondition(before, {
      type: SWITCH_CONDITIONS.valid,
      ...(generation === undefined ? {} : { observedGeneration: generation }),
      ...(verdict.valid
        ? { status: 'True', reason: SWITCH_REASONS.reconciled, message: RECONCILED_MESSAGE }
        : { status: 'False', reason: verdict.reason, message: verdict.message }),
    });
    if (conditions === before) return;
    await patchStatus(this.#options.switches.client, bareMetalSwitch, { conditions }, { signal });
    if (verdict.valid) {
      log.info('BareMetalSwitch reconciled');
      return;
    }
    log.info('BareMetalSwitch left out of the switch configuration', { reason: verdict.reason, problem: verdict.message });
    this.#options.events.event(bareMetalSwitch, { type: 'Warning', reason: verdict.reason, action: 'WriteSwitchConfiguration', note: verdict.message });
  }
}

function problemVerdict(problem: SwitchProblem & { retry?: boolean }): Verdict {
  return {
    valid: false,
    reason: problem.reason === 'spec' ? SWITCH_REASONS.invalidSpec : SWITCH_REASONS.credentialError,
    message: problem.message,
    retry: problem.retry ?? false,
  };
}
