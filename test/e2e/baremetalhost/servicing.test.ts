import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { freePort } from '../../../hack/stack/ports.ts';
import { ironicNodeMessages } from '../../support/ironic-log.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import type { Host } from './hosts.ts';
import {
  getHost, inState, metricValue, recordsSince, serverRecords, tearDownHostTest, waitForFirmwareSettings, waitForHost,
} from './hosts.ts';

// Servicing on emulated servers 70 and 71: both hosts provisioned, both get the same BIOS change
// in their HostFirmwareSettings and the same BIOS update in their HostFirmwareComponents; only
// `serviced` has a HostUpdatePolicy with firmwareSettings and firmwareUpdates onReboot. Nothing
// happens until the hosts are rebooted; then Ironic services `serviced` (a `service` with the
// bios.apply_configuration and firmware.update steps, the host `servicing` meanwhile), its
// emulated BIOS takes the setting, its emulated BMC flashes the new BIOS version, and the host is
// back to OK, still provisioned and never re-imaged. `plain` just reboots.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const SERVERS = { serviced: 70, plain: 71 } as const;
type HostName = keyof typeof SERVERS;
const HOSTS = Object.keys(SERVERS) as HostName[];

interface Condition { type: string; status: string; observedGeneration?: number }
interface HostFirmwareSettings {
  metadata: { generation: number };
  status?: { settings?: Record<string, string>; conditions?: Condition[] };
}
/** What the emulated server's firmware went through (hack/stack/sushy/fake_firmware.py). */
interface FirmwareRecord {
  bios: Record<string, unknown>;
  versions: Record<string, string>;
  record: { kind: string; attributes?: Record<string, unknown>; versions?: Record<string, string> }[];
}
interface HostFirmwareComponents {
  metadata: { generation: number };
  status?: {
    updates?: { component: string; url: string }[];
    components?: { component: string; initialVersion: string; currentVersion?: string; lastVersionFlashed?: string }[];
    conditions?: Condition[];
  };
}

let namespace = '';
let operator: OperatorProcess;
let metricsUrl = '';
const recordsBefore = {} as Record<HostName, SystemRecords>;
/** The BIOS version of each server before this run (the emulated BMC keeps what earlier runs flashed). */
const biosVersionBefore = {} as Record<HostName, string>;
/** `kubectl` output at each step, for the README (logs/servicing-session.txt). */
const sessionFile = join(env.stateDir, 'logs', 'servicing-session.txt');

const system = (host: HostName) => env.systems[SERVERS[host]]!;
const authorization = `Basic ${Buffer.from(`${env.bmcCredentials!.username}:${env.bmcCredentials!.password}`).toString('base64')}`;

async function firmwareRecord(host: HostName): Promise<FirmwareRecord> {
  const response = await fetch(`${env.sushyUrl}/metal3-ts/firmware-record/${system(host).uuid}`, { headers: { authorization } });
  if (!response.ok) throw new Error(`firmware record of ${host}: HTTP ${response.status}`);
  return (await response.json()) as FirmwareRecord;
}

/** A condition's status, when it speaks of the current generation (HostFirmwareSettings or Components). */
const current = (object: { metadata: { generation: number }; status?: { conditions?: Condition[] } }, type: string) => {
  const found = object.status?.conditions?.find((c) => c.type === type);
  return found?.observedGeneration === object.metadata.generation ? found.status : undefined;
};

function waitForSettings(host: HostName, accept: (hfs: HostFirmwareSettings) => boolean, timeoutMs: number): Promise<HostFirmwareSettings> {
  return waitForFirmwareSettings(kubectl, { namespace, host, accept, timeoutMs });
}
function waitForComponents(host: HostName, accept: (hfc: HostFirmwareComponents) => boolean, timeoutMs: number): Promise<HostFirmwareComponents> {
  return waitForFirmwareSettings(kubectl, { namespace, host, accept, timeoutMs, kind: 'hfc' });
}
const biosComponent = (hfc: HostFirmwareComponents) => hfc.status?.components?.find((c) => c.component === 'bios');
/** sushy-tools' UpdateService raises the BIOS version's minor number. */
const nextMinor = (version: string) => version.split('.').map((part, index) => (index === 1 ? String(Number(part) + 1) : part)).join('.');

async function reconciles(host: HostName): Promise<number> {
  return metricValue(await (await fetch(metricsUrl)).text(), 'metal3_reconcile_total', { namespace, host });
}

/** What Ironic's conductor logged about servicing the node, oldest first. */
function servicingLog(nodeId: string): string[] {
  return ironicNodeMessages(env, nodeId).map((message) => message.text)
    .filter((text) => /provision state "(servicing|service wait)"|provision state "active" from state "servicing"|Executing service on node|service complete/.test(text));
}

async function biosInIronic(nodeId: string): Promise<Record<string, string>> {
  const bios = await ironic.request<{ bios: { name: string; value: string }[] }>('GET', `/v1/nodes/${nodeId}/bios`);
  return Object.fromEntries(bios.bios.map((setting) => [setting.name, setting.value]));
}

async function recordSession(command: string[]): Promise<void> {
  const output = await kubectl.ok([...command, '-n', namespace]);
  appendFileSync(sessionFile, `$ kubectl ${command.join(' ')} -n $NS\n${output}\n`);
}

const nodeIdOf = async (host: HostName) => (await getHost(kubectl, namespace, host))!.status!.provisioning!.ID!;

beforeAll(async () => {
  // Factory BIOS settings on the servers, through the BMC's own Redfish action (earlier runs changed them).
  for (const host of HOSTS) {
    const response = await fetch(`${env.sushyUrl}/redfish/v1/Systems/${system(host).uuid}/BIOS/Actions/Bios.ResetBios`, {
      method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: '{}',
    });
    if (!response.ok) throw new Error(`ResetBios on ${host}: HTTP ${response.status}`);
    recordsBefore[host] = await serverRecords(env, system(host).uuid);
    biosVersionBefore[host] = (await firmwareRecord(host)).versions.BiosVersion!;
  }
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hostfirmwaresettings.metal3.io', 'crd/hostfirmwarecomponents.metal3.io', 'crd/hostupdatepolicies.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-servicing');
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  operator = startOperatorProcess({ env, namespace, label: 'servicing', extraEnv: { METRICS_BIND_ADDRESS: `127.0.0.1:${port}` } });
  const items: unknown[] = [{ apiVersion: 'metal3.io/v1alpha1', kind: 'HostUpdatePolicy', metadata: { name: 'serviced', namespace }, spec: { firmwareSettings: 'onReboot', firmwareUpdates: 'onReboot' } }];
  for (const host of HOSTS) {
    items.push(
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${host}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
      {
        apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: host, namespace },
        spec: {
          online: true,
          bootMACAddress: system(host).macs[0],
          bmc: { address: system(host).redfishAddress, credentialsName: `${host}-bmc` },
          automatedCleaningMode: 'disabled',
          image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' },
        },
      },
    );
  }
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  await Promise.all(HOSTS.map((host) => waitForHost(kubectl, namespace, host, (h) => inState('provisioned')(h) && h.status?.poweredOn === true,
    { timeoutMs: minutes(9), failOnError: true })));
}, minutes(10));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('servicing a provisioned host through real Ironic (HostUpdatePolicy onReboot)', () => {
  it('applies a BIOS change and a BIOS update at the next reboot, only with the policy, without re-imaging', async () => {
    // BMO's owner reference: the policy goes with its host.
    const policy = await kubectl.json<{ metadata: { ownerReferences?: { kind: string; name: string; controller?: boolean }[] } }>(
      ['get', 'hostupdatepolicy', 'serviced', '-n', namespace, '-o', 'json']);
    expect(policy.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'BareMetalHost', name: 'serviced' })]);
    expect(policy.metadata.ownerReferences![0]).not.toHaveProperty('controller');

    await Promise.all(HOSTS.map((host) => waitForSettings(host, (hfs) => hfs.status?.settings?.ProcTurboMode === 'Enabled', minutes(2))));
    await Promise.all(HOSTS.map((host) => waitForComponents(host, (hfc) => biosComponent(hfc)?.currentVersion === biosVersionBefore[host], minutes(2))));
    const nodes = { serviced: await nodeIdOf('serviced'), plain: await nodeIdOf('plain') };
    const firmwareBefore = { serviced: (await firmwareRecord('serviced')).record.length, plain: (await firmwareRecord('plain')).record.length };

    for (const host of HOSTS) {
      await kubectl.ok(['patch', 'hfs', host, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { settings: { ProcTurboMode: 'Disabled' } } })]);
      await kubectl.ok(['patch', 'hfc', host, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { updates: [{ component: 'bios', url: image.url }] } })]);
    }
    await Promise.all(HOSTS.map((host) => waitForSettings(host, (hfs) => current(hfs, 'Valid') === 'True' && current(hfs, 'ChangeDetected') === 'True', minutes(2))));
    await Promise.all(HOSTS.map((host) => waitForComponents(host, (hfc) => current(hfc, 'Valid') === 'True' && current(hfc, 'ChangeDetected') === 'True', minutes(2))));
    // The operator has looked at both hosts since the change was judged valid (a probe annotation
    // wakes them): a running host is left alone until it reboots.
    for (const host of HOSTS) {
      const before = await reconciles(host);
      await kubectl.ok(['annotate', 'bmh', host, '-n', namespace, '--overwrite', `servicing.metal3-ts.test/probe=${Date.now()}`]);
      await waitFor(async () => ((await reconciles(host)) > before ? true : undefined), { timeoutMs: minutes(1), what: `a reconcile of ${host}` });
    }
    for (const host of HOSTS) {
      expect((await firmwareRecord(host)).record.slice(firmwareBefore[host])).toEqual([]);
      expect((await ironic.node(nodes[host])).provision_state).toBe('active');
      expect(servicingLog(nodes[host])).toEqual([]);
      expect((await getHost(kubectl, namespace, host))?.status?.operationalStatus).toBe('OK');
    }
    await recordSession(['get', 'bmh,hfs,hfc,hostupdatepolicy', '-o', 'wide']);

    // The reboot: `serviced` goes through servicing on its way back on, `plain` just reboots.
    const seen = new Set<string>();
    const watchStatus = (host: HostName) => (h: Host) => {
      if (host === 'serviced') seen.add(h.status?.operationalStatus ?? '');
      return false;
    };
    for (const host of HOSTS) await kubectl.ok(['annotate', 'bmh', host, '-n', namespace, 'reboot.metal3.io=']);
    await waitForHost(kubectl, namespace, 'serviced', (h) => watchStatus('serviced')(h) || h.status?.operationalStatus === 'servicing', { timeoutMs: minutes(3), failOnError: true });
    await recordSession(['get', 'bmh', '-o', 'wide']);
    const rebooted = (host: HostName) => async (h: Host) => {
      watchStatus(host)(h);
      if (h.status?.operationalStatus !== 'OK' || h.status.poweredOn !== true) return false;
      const annotations = (await kubectl.json<{ metadata: { annotations?: Record<string, string> } }>(['get', 'bmh', host, '-n', namespace, '-o', 'json'])).metadata.annotations ?? {};
      return !('reboot.metal3.io' in annotations);
    };
    for (const host of HOSTS) {
      const check = rebooted(host);
      await waitFor(async () => {
        const h = await getHost(kubectl, namespace, host);
        return h && (await check(h)) ? h : undefined;
      }, { timeoutMs: minutes(8), intervalMs: 1_000, what: `${host} back on and OK after the reboot` });
    }
    expect([...seen]).toContain('servicing');

    // The emulated BIOS of `serviced` took the setting through Redfish and applied it when it booted.
    const record = await firmwareRecord('serviced');
    const applied = record.record.slice(firmwareBefore.serviced);
    expect(applied.filter((entry) => entry.kind === 'bios-pending')).toEqual([expect.objectContaining({ attributes: { ProcTurboMode: 'Disabled' } })]);
    expect(applied.filter((entry) => entry.kind === 'bios-applied')).toEqual([expect.objectContaining({ attributes: { ProcTurboMode: 'Disabled' } })]);
    expect(record.bios).toMatchObject({ ProcTurboMode: 'Disabled' });
    // Its emulated BMC flashed the BIOS once, to the next version.
    const flashedVersion = nextMinor(biosVersionBefore.serviced);
    expect(applied.filter((entry) => entry.kind === 'firmware-flashed')).toEqual([expect.objectContaining({ versions: { BiosVersion: flashedVersion } })]);
    expect(record.versions.BiosVersion).toBe(flashedVersion);
    // Ironic ran it as servicing, is back to active, and its BIOS API has the new value.
    const servicing = servicingLog(nodes.serviced);
    expect(servicing.filter((text) => text.includes('moved to provision state "servicing" from state "active"'))).toHaveLength(1);
    const firstPass = servicing.find((text) => text.startsWith('Executing service on node'));
    expect(firstPass).toContain("'step': 'apply_configuration'");
    expect(firstPass).toContain("'step': 'update'");
    expect(servicing.filter((text) => text.endsWith('service complete.'))).toHaveLength(1);
    expect(servicing.at(-1)).toContain('moved to provision state "active" from state "servicing"');
    expect((await ironic.node(nodes.serviced)).provision_state).toBe('active');
    expect(await biosInIronic(nodes.serviced)).toMatchObject({ ProcTurboMode: 'Disabled' });
    const settled = await waitForSettings('serviced', (hfs) => current(hfs, 'ChangeDetected') === 'False', minutes(2));
    expect(settled.status?.settings?.ProcTurboMode).toBe('Disabled');
    // HostFirmwareComponents: the version at registration, the flashed one now, the update recorded.
    const components = await waitForComponents('serviced', (hfc) => biosComponent(hfc)?.currentVersion === flashedVersion && current(hfc, 'ChangeDetected') === 'False', minutes(2));
    expect(biosComponent(components)).toMatchObject({ initialVersion: biosVersionBefore.serviced, currentVersion: flashedVersion });
    expect(components.status?.updates).toEqual([{ component: 'bios', url: image.url }]);

    // `plain` has no policy: its BIOS, Ironic and its HostFirmwareSettings are as before.
    expect((await firmwareRecord('plain')).record.slice(firmwareBefore.plain)).toEqual([]);
    expect(servicingLog(nodes.plain)).toEqual([]);
    expect(await biosInIronic(nodes.plain)).toMatchObject({ ProcTurboMode: 'Enabled' });
    const waiting = await waitForSettings('plain', () => true, minutes(1));
    expect([waiting.status?.settings?.ProcTurboMode, current(waiting, 'ChangeDetected')]).toEqual(['Enabled', 'True']);
    expect((await firmwareRecord('plain')).versions.BiosVersion).toBe(biosVersionBefore.plain);
    const unflashed = await waitForComponents('plain', () => true, minutes(1));
    expect([biosComponent(unflashed)?.currentVersion, current(unflashed, 'ChangeDetected'), unflashed.status?.updates ?? []]).toEqual([biosVersionBefore.plain, 'True', []]);

    // Both still provisioned on their first image write: servicing never re-imaged anything.
    for (const host of HOSTS) {
      const h = await getHost(kubectl, namespace, host);
      expect(h?.status?.provisioning?.state).toBe('provisioned');
      const since = recordsSince(await serverRecords(env, system(host).uuid), recordsBefore[host]);
      expect(since.imageWrites.map((write) => write.outcome)).toEqual(['written']);
      expect(since.boots.filter((boot) => boot.into === 'disk').length).toBeGreaterThanOrEqual(2);
    }
    await recordSession(['get', 'bmh,hfs,hfc', '-o', 'wide']);
  }, minutes(15));
});
