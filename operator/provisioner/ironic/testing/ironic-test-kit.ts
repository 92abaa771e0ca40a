// Unit-test harness: a nock-mocked Ironic that records every request, and a provisioner wired
// to it with no jitter, so tests can assert the exact calls BMO would make per Ironic state.
import nock from 'nock';
import { ENDPOINT, NODE_UUID } from '../../../../ironic-client/test-support/fixtures.ts';
import { connectTestClient } from '../../../../ironic-client/test-support/ironic-mock.ts';
import type { IronicClient } from '../../../../ironic-client/index.ts';
import { bmcAccessFor } from '../../../bmc/index.ts';
import type { BMCAccess } from '../../../bmc/index.ts';
import type { Logger } from '../../../runtime/logger.ts';
import type { HostIdentity, Provisioner } from '../../provisioner.ts';
import { createIronicProvisioner } from '../ironic-provisioner.ts';
import type { IronicProvisionerOptions } from '../options.ts';

export const NODE_PATH = `/v1/nodes/${NODE_UUID}`;
export const HOST_UID = '8a3f7e52-6a57-4f3d-9f6a-3e2b1c0d9e8f';
export const HOST: HostIdentity = { namespace: 'metal3', name: 'worker-0', uid: HOST_UID, nodeId: NODE_UUID };
export const NEW_HOST: HostIdentity = { namespace: 'metal3', name: 'worker-0', uid: HOST_UID };
export const BOOT_MAC = '52:54:00:12:34:56';
export const KERNEL_URL = 'http://images.test/ipa.kernel';
export const RAMDISK_URL = 'http://images.test/ipa.initramfs';

export function redfishBmc(address = 'redfish+http://bmc.test:8000/redfish/v1/Systems/1'): BMCAccess {
  const result = bmcAccessFor({ address });
  if (!result.ok) throw result.error;
  return result.access;
}

export const silentLogger: Logger = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  child: () => silentLogger,
};

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface TestKit {
  provisioner: Provisioner;
  client: IronicClient;
  /** Interceptors for the negotiated microversion; declare them in the order expected. */
  ironic: nock.Scope;
  requests: RecordedRequest[];
  /** One line per request: method, path, and the verb or patched paths where that matters. */
  calls(): string[];
}

function summarize(request: RecordedRequest): string {
  const line = `${request.method} ${request.path}`;
  const body = request.body as Record<string, unknown> | unknown[] | undefined;
  if (Array.isArray(body)) return `${line} ${body.map((op) => `${(op as { op: string }).op} ${(op as { path: string }).path}`).join(', ')}`;
  if (request.path.endsWith('/states/provision') || request.path.endsWith('/states/power')) return `${line} ${String(body?.['target'])}`;
  return line;
}

export async function startKit(options: { serverMax?: string; provisioner?: Partial<IronicProvisionerOptions> } = {}): Promise<TestKit> {
  const { client } = await connectTestClient({ serverMax: options.serverMax ?? '1.110' });
  const ironic = nock(ENDPOINT);
  const requests: RecordedRequest[] = [];
  // nock 15 hands over a Fetch API Request.
  ironic.on('request', (request: { method: string; url: string }, _interceptor: unknown, body: string) => {
    const url = new URL(request.url);
    requests.push({ method: request.method, path: decodeURIComponent(url.pathname + url.search), body: body ? JSON.parse(body) : undefined });
  });
  const provisioner = createIronicProvisioner({
    client,
    deployKernelUrl: KERNEL_URL,
    deployRamdiskUrl: RAMDISK_URL,
    log: silentLogger,
    random: () => 0,
    nodeCacheTtlMs: 0,
    settledCopyMaxAgeMs: 0,
    ...options.provisioner,
  });
  return { provisioner, client, ironic, requests, calls: () => requests.map(summarize) };
}
