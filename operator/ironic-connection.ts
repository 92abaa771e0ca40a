import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Registry } from 'prom-client';
import { connectIronic } from '../ironic-client/index.ts';
import type { IronicAuthOptions, IronicTlsOptions } from '../ironic-client/index.ts';
import { testOnlyBMCProblem } from './bmc/index.ts';
import { IronicAccessWatch } from './ironic-access.ts';
import { ProvisionerNotReadyError } from './controllers/baremetalhost/provisioner-not-ready.ts';
import type { Provisioner } from './provisioner/provisioner.ts';
import { createIronicProvisioner } from './provisioner/ironic/index.ts';
import { failed } from './provisioner/result.ts';
import { NotLeaderError } from './runtime/index.ts';
import type { Clock } from './runtime/clock.ts';
import type { Logger } from './runtime/logger.ts';
import { BMO_IRONIC_CA_FILE, BMO_IRONIC_CLIENT_CERT_FILE, BMO_IRONIC_CLIENT_KEY_FILE } from './settings.ts';
import type { OperatorSettings } from './settings.ts';

/** BMO reads Ironic basic auth from `<METAL3_AUTH_ROOT_DIR>/ironic/{username,password}` when they exist. */
export function ironicAuthFor(authRootDir: string): IronicAuthOptions {
  const credentialsDir = join(authRootDir, 'ironic');
  return existsSync(join(credentialsDir, 'username')) ? { type: 'http_basic', credentialsDir } : { type: 'none' };
}

type IronicTlsSettings = Pick<OperatorSettings, 'ironicCaCertFile' | 'ironicClientCertFile' | 'ironicClientPrivateKeyFile' | 'ironicInsecure' | 'ironicSkipClientSanVerify'>;

/** The files BMO uses when no variable names them, each only if it exists. */
export const BMO_IRONIC_TLS_FILES = { caFile: BMO_IRONIC_CA_FILE, certFile: BMO_IRONIC_CLIENT_CERT_FILE, keyFile: BMO_IRONIC_CLIENT_KEY_FILE };

/**
 * BMO's Ironic TLS: a file a setting names is used (ironicFileProblems has checked it); otherwise
 * BMO's default path, if a file is there. A client certificate needs its key, and the other way round.
 */
export function ironicTlsFor(settings: IronicTlsSettings, defaults: typeof BMO_IRONIC_TLS_FILES = BMO_IRONIC_TLS_FILES): IronicTlsOptions {
  const present = (path: string) => (existsSync(path) ? path : undefined);
  const caFile = settings.ironicCaCertFile || present(defaults.caFile);
  const certFile = settings.ironicClientCertFile || present(defaults.certFile);
  const keyFile = settings.ironicClientPrivateKeyFile || present(defaults.keyFile);
  return {
    ...(caFile ? { caFile } : {}),
    ...(certFile && keyFile ? { certFile, keyFile } : {}),
    insecure: settings.ironicInsecure,
    skipHostnameVerification: settings.ironicSkipClientSanVerify,
  };
}

/** Files the Ironic connection needs that are missing or unreadable, as start-up problems. */
export function ironicFileProblems(settings: Pick<OperatorSettings, 'authRootDir' | 'ironicCaCertFile' | 'ironicClientCertFile' | 'ironicClientPrivateKeyFile'>): string[] {
  const problems: string[] = [];
  const readable = (path: string) => {
    try {
      accessSync(path, constants.R_OK);
      return true;
    } catch {
      return false;
    }
  };
  const named = [
    ['IRONIC_CACERT_FILE (--ironic-cacert-file)', settings.ironicCaCertFile],
    ['IRONIC_CLIENT_CERT_FILE (--ironic-client-cert-file)', settings.ironicClientCertFile],
    ['IRONIC_CLIENT_PRIVATE_KEY_FILE (--ironic-client-private-key-file)', settings.ironicClientPrivateKeyFile],
  ] as const;
  for (const [setting, path] of named) {
    if (path && !readable(path)) problems.push(`invalid setting ${setting}: cannot read ${path}`);
  }
  if (Boolean(settings.ironicClientCertFile) !== Boolean(settings.ironicClientPrivateKeyFile)) {
    problems.push('invalid settings IRONIC_CLIENT_CERT_FILE and IRONIC_CLIENT_PRIVATE_KEY_FILE: a client certificate needs its key, and the key its certificate');
  }
  const auth = ironicAuthFor(settings.authRootDir);
  if (auth.type === 'http_basic' && 'credentialsDir' in auth && !readable(join(auth.credentialsDir, 'password'))) {
    problems.push(`invalid setting METAL3_AUTH_ROOT_DIR (--auth-root-dir): ${auth.credentialsDir}/username exists but password cannot be read`);
  }
  return problems;
}

/**
 * A provisioner that connects on first use. Until Ironic answers (it may start after the
 * operator), every call fails with ProvisionerNotReadyError: hosts wait 30 s without
 * recording an error, as BMO does with ErrNotReady.
 */
export function lazyProvisioner(connect: () => Promise<Provisioner>): Provisioner {
  let connecting: Promise<Provisioner> | undefined;
  let connected: Provisioner | undefined;
  const ready = (): Promise<Provisioner> => {
    connecting ??= connect().then((provisioner) => (connected = provisioner), (error: unknown) => {
      connecting = undefined;
      throw new ProvisionerNotReadyError(`provisioner is not ready: ${(error as Error).message}`, { cause: error });
    });
    return connecting;
  };
  return {
    register: async (o) => (await ready()).register(o),
    inspect: async (o) => (await ready()).inspect(o),
    prepare: async (o) => (await ready()).prepare(o),
    service: async (o) => (await ready()).service(o),
    provision: async (o) => (await ready()).provision(o),
    adopt: async (o) => (await ready()).adopt(o),
    deprovision: async (o) => (await ready()).deprovision(o),
    powerOn: async (o) => (await ready()).powerOn(o),
    powerOff: async (o) => (await ready()).powerOff(o),
    hardwareState: async (o) => (await ready()).hardwareState(o),
    firmwareSettings: async (o) => (await ready()).firmwareSettings(o),
    firmwareComponents: async (o) => (await ready()).firmwareComponents(o),
    dataImageStatus: async (o) => (await ready()).dataImageStatus(o),
    attachDataImage: async (o) => (await ready()).attachDataImage(o),
    detachDataImage: async (o) => (await ready()).detachDataImage(o),
    addEventSubscription: async (o) => (await ready()).addEventSubscription(o),
    removeEventSubscription: async (o) => (await ready()).removeEventSubscription(o),
    health: (o) => connected?.health(o),
    bmcProblem: (o) => connected?.bmcProblem(o),
    firmwareRefreshes: (o) => connected?.firmwareRefreshes(o) ?? {},
    nodeDigests: async () => (await ready()).nodeDigests(),
    lastNodeRead: (nodeId) => connected?.lastNodeRead(nodeId),
    delete: async (o) => (await ready()).delete(o),
    detach: async (o) => (await ready()).detach(o),
  };
}

/**
 * Refuses hosts whose BMC type is a test hook (fake-hardware) with a registration error,
 * unless the operator was started with --allow-fake-hardware. Every other call passes through.
 */
export function guardTestOnlyBMC(provisioner: Provisioner, options: { allowFakeHardware: boolean }): Provisioner {
  return {
    register: async (o) => {
      const problem = testOnlyBMCProblem({ access: o.bmc, allowFakeHardware: options.allowFakeHardware });
      return problem === undefined ? provisioner.register(o) : failed(problem);
    },
    inspect: (o) => provisioner.inspect(o),
    prepare: (o) => provisioner.prepare(o),
    service: (o) => provisioner.service(o),
    provision: (o) => provisioner.provision(o),
    adopt: (o) => provisioner.adopt(o),
    deprovision: (o) => provisioner.deprovision(o),
    powerOn: (o) => provisioner.powerOn(o),
    powerOff: (o) => provisioner.powerOff(o),
    hardwareState: (o) => provisioner.hardwareState(o),
    firmwareSettings: (o) => provisioner.firmwareSettings(o),
    firmwareComponents: (o) => provisioner.firmwareComponents(o),
    dataImageStatus: (o) => provisioner.dataImageStatus(o),
    attachDataImage: (o) => provisioner.attachDataImage(o),
    detachDataImage: (o) => provisioner.detachDataImage(o),
    addEventSubscription: (o) => provisioner.addEventSubscription(o),
    removeEventSubscription: (o) => provisioner.removeEventSubscription(o),
    health: (o) => provisioner.health(o),
    bmcProblem: (o) => provisioner.bmcProblem(o),
    firmwareRefreshes: (o) => provisioner.firmwareRefreshes(o),
    nodeDigests: () => provisioner.nodeDigests(),
    lastNodeRead: (nodeId) => provisioner.lastNodeRead(nodeId),
    delete: (o) => provisioner.delete(o),
    detach: (o) => provisioner.detach(o),
  };
}

export interface IronicProvisionerDeps {
  settings: OperatorSettings;
  logger: Logger;
  registry: Registry;
  clock: Clock;
  /** Where the `ironic` readiness check goes (fails while Ironic refuses the operator). */
  readyz?: { add(name: string, check: () => void): void };
  /** False while this replica may not write (leader election): Ironic writes are then refused unsent. */
  mayWrite?: () => boolean;
}

/** A replica that may have lost its Lease sends Ironic no change: another replica may lead now. */
export function writeFence(mayWrite: () => boolean): (request: { method: string; route: string }) => void {
  return (request) => {
    if (!mayWrite()) throw new NotLeaderError(`not the leader: Ironic ${request.method} ${request.route} refused`);
  };
}

/** The Ironic provisioner from the compiled settings, connecting (and negotiating the API version) lazily. */
export function ironicProvisioner(deps: IronicProvisionerDeps): Provisioner {
  const { settings } = deps;
  const lazy = lazyProvisioner(async () => {
    const client = await connectIronic({
      endpoint: settings.ironicEndpoint ?? '',
      auth: ironicAuthFor(settings.authRootDir),
      tls: ironicTlsFor(settings),
      timeoutMs: settings.ironicClientTimeoutMs,
      refreshIntervalMs: settings.ironicClientCacheTtlMs,
      onMaterialChange: (changed) => deps.logger.info('Ironic connection files changed: new requests use them', { changed }),
      metricsRegistry: deps.registry,
      ...(deps.mayWrite ? { beforeWrite: writeFence(deps.mayWrite) } : {}),
    });
    deps.logger.info('connected to ironic', { endpoint: client.endpoint, microversion: client.microversion });
    return createIronicProvisioner({
      client,
      log: deps.logger.child({ component: 'ironic-provisioner' }),
      clock: deps.clock,
      provisioningNetworkDisabled: settings.provisioningNetworkDisabled,
      forcePersistentBootDevice: {
        ...(settings.liveIsoForcePersistentBootDevice ? { liveIso: settings.liveIsoForcePersistentBootDevice } : {}),
        ...(settings.directDeployForcePersistentBootDevice ? { directDeploy: settings.directDeployForcePersistentBootDevice } : {}),
      },
      pollIntervals: { shortMs: settings.ironicPollShortMs, longMs: settings.ironicPollLongMs },
      ...(settings.deployKernelUrl ? { deployKernelUrl: settings.deployKernelUrl } : {}),
      ...(settings.deployRamdiskUrl ? { deployRamdiskUrl: settings.deployRamdiskUrl } : {}),
      ...(settings.deployIsoUrl ? { deployIsoUrl: settings.deployIsoUrl } : {}),
      preprovisioningImageBuilder: settings.buildPreprovImage,
    });
  });
  const access = new IronicAccessWatch(deps.logger);
  deps.readyz?.add('ironic', access.check);
  return guardTestOnlyBMC(access.wrap(lazy), { allowFakeHardware: settings.allowFakeHardware });
}
