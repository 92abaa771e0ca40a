import { describe, expect, it } from '@jest/globals';
import { BIOS_READ, FIRMWARE_READ, firmwareReadsPerHost, firmwareReadsTable } from './firmware-reads.ts';
import type { BenchReport, OperatorRun, RequestCounts } from './types.ts';

const counts = (byKeyPerHost: Record<string, number>): RequestCounts => ({ total: 0, perHost: 0, byKeyPerHost });

function run(label: string): OperatorRun {
  const phase = (byKeyPerHost: Record<string, number>) => ({ ironic: counts(byKeyPerHost) }) as OperatorRun['phases']['register'];
  return {
    label,
    poll: { shortMs: 3000, longMs: 10_000 },
    phases: {
      register: phase({ [BIOS_READ]: 2, [FIRMWARE_READ]: 2, 'GET /v1/nodes/{node_ident}': 9 }),
      provision: phase({ [BIOS_READ]: 1 }),
      deprovision: phase({ [BIOS_READ]: 1.5, [FIRMWARE_READ]: 1 }),
    },
    deletion: { ironic: counts({ [FIRMWARE_READ]: 0.25 }) } as OperatorRun['deletion'],
    lifecycle: { kubeRequestsPerHost: 0, cpuSeconds: 0, peakRssMiB: 0 },
  };
}

describe('firmware reads per host', () => {
  it('picks the BIOS and firmware reads of each phase and the deletion, and sums them', () => {
    expect(firmwareReadsPerHost(run('a'))).toEqual([
      { title: 'created → available', bios: 2, firmware: 2 },
      { title: 'image set → provisioned', bios: 1, firmware: 0 },
      { title: 'image cleared → available', bios: 1.5, firmware: 1 },
      { title: 'deleted → gone', bios: 0, firmware: 0.25 },
      { title: 'whole run', bios: 4.5, firmware: 3.25 },
    ]);
  });

  it('is a table with two columns per run, none for the fixture provisioner', () => {
    const report = { settings: { mode: 'redfish' }, runs: [run('a'), run('b')] } as unknown as BenchReport;
    const table = firmwareReadsTable(report)!;
    expect(table).toContain('| firmware reads per host | a: GET …/bios | a: GET …/firmware | b: GET …/bios | b: GET …/firmware |');
    expect(table).toContain('| whole run | 4.5 | 3.3 | 4.5 | 3.3 |');
    expect(firmwareReadsTable({ ...report, settings: { ...report.settings, mode: 'fixture' } })).toBeUndefined();
  });
});
