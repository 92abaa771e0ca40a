import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  hostEvents, inState, tearDownHostTest, waitForFirmwareSettings, waitForHost,
} from './hosts.ts';

// HostFirmwareSettings and FirmwareSchema on emulated servers 64 and 65: BIOS settings read from
// Ironic's BIOS API (which read them from sushy-tools' Redfish BIOS, with sushy-tools' attribute
// registry), one schema shared by both hosts, a spec validated against it, and a valid change
// applied by a manual clean step that the emulated BIOS records and applies at the next boot.
// HostFirmwareComponents on server 66: versions from Ironic's firmware API, a BIOS update
// flashed through sushy-tools' UpdateService by a manual clean step, versions before and after.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const minutes = (n: number) => n * 60_000;
const SERVERS = { tuned: 64, rejected: 65, flashed: 66 } as const;
type HostName = keyof typeof SERVERS;

interface Condition { type: string; status: string; reason: string; observedGeneration?: number }
interface HostFirmwareSettings {
  metadata: { generation: number; ownerReferences?: { kind: string; name: string }[] };
  spec: { settings: Record<string, string | number> };
  status?: { settings?: Record<string, string>; schema?: { name: string; namespace: string }; conditions?: Condition[] };
}
interface FirmwareSchema {
  metadata: { name: string; ownerReferences?: { kind: string; name: string }[] };
  spec: { hardwareVendor?: string; hardwareModel?: string; schema: Record<string, { attribute_type?: string; read_only?: boolean; lower_bound?: number; upper_bound?: number; allowable_values?: string[] }> };
}
/** What the emulated server's firmware went through (hack/stack/sushy/fake_firmware.py). */
interface FirmwareRecord {
  bios: Record<string, unknown>;
  biosPending: Record<string, unknown>;
  versions: Record<string, string>;
  record: { kind: string; attributes?: Record<string, unknown>; versions?: Record<string, string> }[];
}
interface HostFirmwareComponents {
  metadata: { generation: number };
  spec: { updates: { component: string; url: string }[] };
  status?: {
    updates?: { component: string; url: string }[];
    components?: { component: string; initialVersion: string; currentVersion?: string; lastVersionFlashed?: string }[];
    conditions?: Condition[];
  };
}

let namespace = '';
let operator: OperatorProcess;
/** Server 66's BIOS version before this run (the emulated BMC keeps what earlier runs flashed). */
let biosVersionBefore = '';

const authorization = `Basic ${Buffer.from(`${env.bmcCredentials!.username}:${env.bmcCredentials!.password}`).toString('base64')}`;
async function firmwareRecord(host: HostName): Promise<FirmwareRecord> {
  const response = await fetch(`${env.sushyUrl}/metal3-ts/firmware-record/${env.systems[SERVERS[host]]!.uuid}`, { headers: { authorization } });
  if (!response.ok) throw new Error(`firmware record of ${host}: HTTP ${response.status}`);
  return (await response.json()) as FirmwareRecord;
}


const condition = (hfs: HostFirmwareSettings, type: string) => {
  const found = hfs.status?.conditions?.find((c) => c.type === type);
  return found?.observedGeneration === hfs.metadata.generation ? found : undefined;
};

function waitForSettings(host: HostName, accept: (hfs: HostFirmwareSettings) => boolean, timeoutMs: number): Promise<HostFirmwareSettings> {
  return waitForFirmwareSettings(kubectl, { namespace, host, accept, timeoutMs });
}

async function waitForComponents(accept: (hfc: HostFirmwareComponents) => boolean, timeoutMs: number): Promise<HostFirmwareComponents> {
  let last: HostFirmwareComponents | undefined;
  return waitFor(async () => {
    const result = await kubectl.run(['get', 'hfc', 'flashed', '-n', namespace, '-o', 'json']);
    if (result.code !== 0) return undefined;
    last = JSON.parse(result.stdout) as HostFirmwareComponents;
    return accept(last) ? last : undefined;
  }, { timeoutMs, intervalMs: 1_000, what: 'HostFirmwareComponents flashed' }).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}; last: ${JSON.stringify(last ?? null)}`, { cause: error });
  });
}

const componentCondition = (hfc: HostFirmwareComponents, type: string) => {
  const found = hfc.status?.conditions?.find((c) => c.type === type);
  return found?.observedGeneration === hfc.metadata.generation ? found : undefined;
};
const version = (hfc: HostFirmwareComponents, component: string) => hfc.status?.components?.find((c) => c.component === component);

const setSpec = (host: HostName, settings: Record<string, string | number>) =>
  kubectl.ok(['patch', 'hfs', host, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { settings } })]);

/** sushy-tools' UpdateService raises the BIOS version's minor number. */
const nextMinor = (version: string) => version.split('.').map((part, index) => (index === 1 ? String(Number(part) + 1) : part)).join('.');

beforeAll(async () => {
  // Factory BIOS settings on the servers, through the BMC's own Redfish action (earlier runs changed them).
  for (const index of Object.values(SERVERS)) {
    const response = await fetch(`${env.sushyUrl}/redfish/v1/Systems/${env.systems[index]!.uuid}/BIOS/Actions/Bios.ResetBios`, {
      method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: '{}',
    });
    if (!response.ok) throw new Error(`ResetBios on server ${index}: HTTP ${response.status}`);
  }
  biosVersionBefore = (await firmwareRecord('flashed')).versions.BiosVersion!;
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hostfirmwaresettings.metal3.io', 'crd/firmwareschemas.metal3.io', 'crd/hostfirmwarecomponents.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-firmware');
  operator = startOperatorProcess({ env, namespace, label: 'firmware' });
  const items = Object.entries(SERVERS).flatMap(([name, index]) => {
    const system = env.systems[index]!;
    return [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
      {
        apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace },
        spec: { online: false, bootMACAddress: system.macs[0], bmc: { address: system.redfishAddress, credentialsName: `${name}-bmc` }, automatedCleaningMode: 'disabled' },
      },
    ];
  });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
}, minutes(2));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('HostFirmwareSettings and FirmwareSchema through real Ironic', () => {
  it('reads the BIOS of both hosts into one shared schema, rejects an invalid spec and applies a valid one on the server', async () => {
    // Created at registration and filled from Ironic's BIOS API, passwords left out.
    const [tuned, rejected] = await Promise.all((['tuned', 'rejected'] as const).map((host) =>
      waitForSettings(host, (hfs) => hfs.status?.settings?.ProcTurboMode !== undefined && condition(hfs, 'Valid')?.status === 'True', minutes(6))));
    for (const hfs of [tuned!, rejected!]) {
      expect(hfs.status?.settings).toMatchObject({ ProcTurboMode: 'Enabled', EmbeddedSata: 'Raid', NumCores: '10', SerialNumber: 'QPX12345' });
      expect(hfs.status?.settings).not.toHaveProperty('SysPassword');
      expect(condition(hfs, 'ChangeDetected')?.status).toBe('False');
      expect(hfs.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'BareMetalHost' });
    }
    const schemaName = tuned!.status!.schema!.name;
    expect(schemaName).toMatch(/^schema-[0-9a-f]{8}$/);
    expect(rejected!.status!.schema!.name).toBe(schemaName);
    // A host's owner reference is written after its settings are (the schema store batches them).
    const schemas = await waitFor(async () => {
      const list = await kubectl.json<{ items: FirmwareSchema[] }>(['get', 'firmwareschema', '-n', namespace, '-o', 'json']);
      const owners = new Set(list.items[0]?.metadata.ownerReferences?.map((ref) => ref.name));
      return owners.has('rejected') && owners.has('tuned') ? list : undefined;
    }, { timeoutMs: minutes(1), what: 'the FirmwareSchema to have both hosts\' settings among its owners' });
    expect(schemas.items.map((s) => s.metadata.name)).toEqual([schemaName]);
    const schema = schemas.items[0]!;
    expect(schema.metadata.ownerReferences?.map((ref) => `${ref.kind}/${ref.name}`)).toEqual(expect.arrayContaining(['HostFirmwareSettings/rejected', 'HostFirmwareSettings/tuned']));
    expect(schema.spec.schema.NumCores).toMatchObject({ attribute_type: 'Integer', read_only: true, lower_bound: 10, upper_bound: 20 });
    expect(schema.spec.schema.ProcTurboMode).toMatchObject({ attribute_type: 'Enumeration', allowable_values: ['Enabled', 'Disabled'] });
    expect(schema.spec.schema).not.toHaveProperty('SysPassword');

    await Promise.all((['tuned', 'rejected'] as const).map((host) => waitForHost(kubectl, namespace, host, inState('available'), { timeoutMs: minutes(6), failOnError: true })));
    const recordsBefore = { tuned: (await firmwareRecord('tuned')).record.length, rejected: (await firmwareRecord('rejected')).record.length };

    // Invalid: read-only, unknown, outside the enumeration, a password.
    await setSpec('rejected', { NumCores: 12, Bogus: 'x', ProcTurboMode: 'Sometimes', SysPassword: 'secret' });
    // Valid: applied in preparing.
    await setSpec('tuned', { ProcTurboMode: 'Disabled', EmbeddedSata: 'Ahci' });

    const invalid = await waitForSettings('rejected', (hfs) => condition(hfs, 'Valid')?.status === 'False', minutes(2));
    expect(condition(invalid, 'Valid')).toMatchObject({ reason: 'ConfigurationError' });
    expect(condition(invalid, 'ChangeDetected')?.status).toBe('True');
    const events = await hostEvents(kubectl, namespace, 'rejected');
    expect(events).toEqual(expect.arrayContaining([
      'ValidationFailed: Invalid BIOS setting: Setting NumCores is invalid, it is ReadOnly',
      'ValidationFailed: Invalid BIOS setting: setting Bogus is not in the Status field',
      'ValidationFailed: Invalid BIOS setting: Setting ProcTurboMode is invalid, unknown enumeration value - Sometimes',
      'ValidationFailed: Invalid BIOS setting: cannot set Password field',
    ]));

    const changing = await waitForSettings('tuned', (hfs) => condition(hfs, 'ChangeDetected')?.status === 'True' && condition(hfs, 'Valid')?.status === 'True', minutes(2));
    expect(changing.status?.settings?.ProcTurboMode).toBe('Enabled');
    await waitForHost(kubectl, namespace, 'tuned', inState('preparing'), { timeoutMs: minutes(2), failOnError: true });
    await waitForHost(kubectl, namespace, 'tuned', inState('available'), { timeoutMs: minutes(8), failOnError: true });

    // The server's BIOS took both settings through Redfish, then applied them when it booted.
    const record = await firmwareRecord('tuned');
    const applied = record.record.slice(recordsBefore.tuned);
    expect(applied.filter((entry) => entry.kind === 'bios-pending')).toEqual([expect.objectContaining({ attributes: { ProcTurboMode: 'Disabled', EmbeddedSata: 'Ahci' } })]);
    expect(applied.filter((entry) => entry.kind === 'bios-applied')).toEqual([expect.objectContaining({ attributes: { ProcTurboMode: 'Disabled', EmbeddedSata: 'Ahci' } })]);
    expect(record.bios).toMatchObject({ ProcTurboMode: 'Disabled', EmbeddedSata: 'Ahci', NumCores: 10 });
    // Ironic ran it as a manual clean step and re-read the BIOS.
    const host = await waitForHost(kubectl, namespace, 'tuned', inState('available'), { timeoutMs: minutes(1) });
    const bios = await ironic.request<{ bios: { name: string; value: string }[] }>('GET', `/v1/nodes/${host.status!.provisioning!.ID}/bios`);
    expect(Object.fromEntries(bios.bios.map((s) => [s.name, s.value]))).toMatchObject({ ProcTurboMode: 'Disabled', EmbeddedSata: 'Ahci' });
    const settled = await waitForSettings('tuned', (hfs) => condition(hfs, 'ChangeDetected')?.status === 'False', minutes(2));
    expect(settled.status?.settings).toMatchObject({ ProcTurboMode: 'Disabled', EmbeddedSata: 'Ahci' });

    // The invalid spec never reached the other server, and its host never left available.
    expect((await firmwareRecord('rejected')).record.slice(recordsBefore.rejected)).toEqual([]);
    expect((await waitForHost(kubectl, namespace, 'rejected', () => true, { timeoutMs: minutes(1) })).status?.provisioning?.state).toBe('available');

    // Filled in from the inspected hardware once a host read after inspection.
    const vendor = host.status?.hardware?.systemVendor?.manufacturer;
    expect(vendor).toBeTruthy();
    await waitFor(async () => ((await kubectl.json<FirmwareSchema>(['get', 'firmwareschema', schemaName, '-n', namespace, '-o', 'json'])).spec.hardwareVendor === vendor ? true : undefined),
      { timeoutMs: minutes(1), what: 'the schema to name the vendor' });

    const columns = await kubectl.ok(['get', 'hfs,firmwareschema', '-n', namespace]);
    expect(columns).toMatch(/NAME\s+VALID\s+CHANGE\s+SCHEMA\s+UPDATED\s+AGE/);
    expect(columns).toMatch(new RegExp(`hostfirmwaresettings.metal3.io/rejected\\s+False\\s+True\\s+${schemaName}`));
    expect(columns).toMatch(new RegExp(`hostfirmwaresettings.metal3.io/tuned\\s+True\\s+False\\s+${schemaName}`));
    expect(columns).toMatch(/NAME\s+VENDOR\s+MODEL\s+AGE/);
  }, minutes(20));

  it('reads firmware versions, refuses an unknown component and flashes a BIOS update on the server', async () => {
    const before = await waitForComponents((hfc) => version(hfc, 'bios') !== undefined && componentCondition(hfc, 'Valid')?.status === 'True', minutes(6));
    expect(version(before, 'bios')).toMatchObject({ initialVersion: biosVersionBefore, currentVersion: biosVersionBefore });
    expect(version(before, 'bmc')).toMatchObject({ initialVersion: '1.00', currentVersion: '1.00' });
    expect(componentCondition(before, 'ChangeDetected')?.status).toBe('False');
    await waitForHost(kubectl, namespace, 'flashed', inState('available'), { timeoutMs: minutes(6), failOnError: true });
    const recordBefore = (await firmwareRecord('flashed')).record.length;
    const url = env.images[0]!.url;

    await kubectl.ok(['patch', 'hfc', 'flashed', '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { updates: [{ component: 'disk', url }] } })]);
    const invalid = await waitForComponents((hfc) => componentCondition(hfc, 'Valid')?.status === 'False', minutes(2));
    expect(componentCondition(invalid, 'Valid')).toMatchObject({ reason: 'InvalidComponent' });
    expect(await hostEvents(kubectl, namespace, 'flashed')).toContain(
      "ValidationFailed: Invalid Firmware Components: component disk is invalid, only 'bmc', 'bios', or names starting with 'nic:' are allowed as update names");
    expect((await waitForHost(kubectl, namespace, 'flashed', () => true, { timeoutMs: minutes(1) })).status?.provisioning?.state).toBe('available');

    await kubectl.ok(['patch', 'hfc', 'flashed', '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { updates: [{ component: 'bios', url }] } })]);
    await waitForHost(kubectl, namespace, 'flashed', inState('preparing'), { timeoutMs: minutes(2), failOnError: true });
    await waitForHost(kubectl, namespace, 'flashed', inState('available'), { timeoutMs: minutes(10), failOnError: true });
    const flashedVersion = nextMinor(biosVersionBefore);
    const after = await waitForComponents((hfc) => version(hfc, 'bios')?.currentVersion === flashedVersion && componentCondition(hfc, 'ChangeDetected')?.status === 'False', minutes(3));
    expect(version(after, 'bios')).toMatchObject({ initialVersion: biosVersionBefore, currentVersion: flashedVersion });
    expect(after.status?.updates).toEqual([{ component: 'bios', url }]);

    // The emulated BMC flashed exactly once, to the version the status shows; the invalid update never reached it.
    const record = await firmwareRecord('flashed');
    expect(record.record.slice(recordBefore).filter((entry) => entry.kind === 'firmware-flashed')).toEqual([expect.objectContaining({ versions: { BiosVersion: flashedVersion } })]);
    expect(record.versions.BiosVersion).toBe(flashedVersion);

    const columns = await kubectl.ok(['get', 'hfc', '-n', namespace]);
    expect(columns).toMatch(/NAME\s+VALID\s+CHANGE\s+BIOS\s+BMC\s+UPDATED\s+AGE/);
    expect(columns).toMatch(new RegExp(`flashed\\s+True\\s+False\\s+${flashedVersion.replaceAll('.', '\\.')}\\s+1\\.00`));
  }, minutes(20));
});
