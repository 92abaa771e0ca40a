import { describe, expect, it } from '@jest/globals';
import { hardwareDataSchema } from './hardwaredata.ts';
import { hardwareDetailsSchema } from './hardware-details.ts';
import { seedDocumentsOfKind } from './testing/seed-fixtures.ts';

describe('HardwareData', () => {
  it('holds the hardware the seed host reports', () => {
    const status = seedDocumentsOfKind('BareMetalHost')[0]!.document.status as { hardware: unknown };
    const data = hardwareDataSchema.parse({
      apiVersion: 'metal3.io/v1alpha1',
      kind: 'HardwareData',
      metadata: { name: 'node-0', namespace: 'metal3' },
      spec: { hardware: status.hardware },
    });
    expect(data.spec.hardware?.cpu).toEqual({ arch: 'x86_64', count: 2 });
    expect(data.spec.hardware?.nics?.[0]?.mac).toBe('00:5a:91:3f:9a:bd');
  });

  it('reads a missing spec as empty', () => {
    expect(hardwareDataSchema.parse({ metadata: { name: 'x' } }).spec).toEqual({});
  });
});

describe('HardwareDetails', () => {
  it('accepts every inspected field', () => {
    const details = {
      systemVendor: { manufacturer: 'QEMU', productName: 'Standard PC', serialNumber: 's1' },
      firmware: { bios: { date: '04/01/2014', vendor: 'SeaBIOS', version: '1.16' } },
      ramMebibytes: 4096,
      nics: [
        {
          name: 'eth0', model: '0x1af4 0x0001', mac: '52:54:00:12:34:56', ip: 'fd00::2', speedGbps: 10,
          vlans: [{ id: 100, name: 'v100' }], vlanId: 0, pxe: true,
          lldp: { switchID: 'c0:ff:ee:00:00:01', portID: 'Ethernet1', switchSystemName: 'leaf1' }, pciAddress: '0000:00:03.0',
        },
      ],
      storage: [
        {
          name: '/dev/disk/by-path/pci-0000:00:05.0', alternateNames: ['/dev/vda'], rotational: false, type: 'NVME',
          sizeBytes: 21474836480, vendor: 'v', model: 'm', serialNumber: 'sn', wwn: 'w', wwnVendorExtension: 'e', wwnWithExtension: 'we', hctl: '0:0:0:0',
        },
      ],
      cpu: { arch: 'x86_64', model: 'Xeon', clockMegahertz: 2399.998, flags: ['vmx'], count: 4 },
      hostname: 'node-0',
    };
    expect(hardwareDetailsSchema.parse(details)).toEqual(details);
  });

  it('rejects a VLAN id above 4094 and an unknown disk type', () => {
    expect(hardwareDetailsSchema.safeParse({ nics: [{ vlanId: 4095 }] }).success).toBe(false);
    expect(hardwareDetailsSchema.safeParse({ storage: [{ type: 'TAPE' }] }).success).toBe(false);
  });
});
