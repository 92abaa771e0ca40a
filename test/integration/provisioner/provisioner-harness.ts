// Shared pieces of the provisioner integration tests: a client that counts its requests, a
// provisioner on it, and a loop that calls a verb until it is done, as a controller would.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { connectIronic, REQUESTS_TOTAL } from '../../../ironic-client/index.ts';
import type { IronicClient } from '../../../ironic-client/index.ts';
import type { BMCAccess } from '../../../operator/bmc/index.ts';
import type { Logger } from '../../../operator/runtime/logger.ts';
import { createIronicProvisioner } from '../../../operator/provisioner/ironic/index.ts';
import type { HostIdentity, Provisioner } from '../../../operator/provisioner/provisioner.ts';
import type { ProvisionerResult } from '../../../operator/provisioner/result.ts';
import type { StackEnv } from '../../support/stack-env.ts';

export const quietLogger: Logger = {
  error: (message, meta) => console.error(message, meta),
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  child: () => quietLogger,
};

export interface Harness {
  client: IronicClient;
  provisioner: Provisioner;
  /** Requests sent to Ironic so far (retries included). */
  requestCount(): Promise<number>;
  close(): void;
}

export async function createHarness(env: StackEnv, options: { shortMs: number; longMs: number }): Promise<Harness> {
  const registry = new Registry();
  const client = await connectIronic({
    endpoint: env.ironicUrl,
    ...(env.ironicAuth ? { auth: { type: 'http_basic', credentialsDir: env.ironicAuth.directory } } : {}),
    metricsRegistry: registry,
  });
  const provisioner = createIronicProvisioner({
    client,
    deployKernelUrl: `${env.artifactsUrl}/ipa.kernel`,
    deployRamdiskUrl: `${env.artifactsUrl}/ipa.initramfs`,
    log: quietLogger,
    pollIntervals: { shortMs: options.shortMs, longMs: options.longMs },
  });
  return {
    client,
    provisioner,
    async requestCount() {
      const metric = await registry.getSingleMetric(REQUESTS_TOTAL)?.get();
      return (metric?.values ?? []).reduce((sum, sample) => sum + sample.value, 0);
    },
    close: () => client.close(),
  };
}

export interface Drive<T> {
  value: T;
  calls: number;
  requests: number;
  seconds: number;
}

/**
 * Calls `verb` until it is done, waiting as long as each busy result asks; a failed result
 * or a timeout throws. Counts the calls and the Ironic requests they made.
 */
export async function drive<T>(
  harness: Harness,
  what: string,
  verb: () => Promise<ProvisionerResult<T>>,
  options: { timeoutMs: number; onBusy?: (reason: string) => Promise<void> },
): Promise<Drive<T>> {
  const started = Date.now();
  const before = await harness.requestCount();
  let calls = 0;
  for (;;) {
    calls++;
    const result = await verb();
    if (result.kind === 'done') {
      return { value: result.value, calls, requests: (await harness.requestCount()) - before, seconds: (Date.now() - started) / 1000 };
    }
    if (result.kind === 'failed') throw new Error(`${what} failed: ${result.message}`);
    if (Date.now() - started > options.timeoutMs) throw new Error(`${what} still busy after ${options.timeoutMs} ms: ${result.reason}`);
    await options.onBusy?.(result.reason);
    await sleep(result.afterMs);
  }
}

export function testHost(name: string): HostIdentity {
  return { namespace: 'provisioner-it', name, uid: randomUUID() };
}

/** A BMC for Ironic's fake-hardware type: no address, every interface simulated. */
export function fakeHardwareBmc(): BMCAccess {
  return {
    type: 'fake',
    driver: 'fake-hardware',
    interfaces: { bios: 'fake', boot: 'fake', firmware: 'fake', inspect: '', management: 'fake', power: 'fake', raid: 'fake', vendor: 'fake' },
    needsMac: false,
    supportsSecureBoot: false,
    supportsIsoPreprovisioningImage: false,
    requiresProvisioningNetwork: false,
    disableCertificateVerification: false,
    driverInfo: () => ({}),
  };
}

/** Test cleanup: removes the host's Ironic node whatever state a failed test left it in. */
export async function removeTestNode(client: IronicClient, host: HostIdentity): Promise<void> {
  const name = `${host.namespace}~${host.name}`;
  await client.nodes.setMaintenance(name, { reason: 'test cleanup' }).catch(() => undefined);
  await client.nodes.delete(name).catch(() => undefined);
}
