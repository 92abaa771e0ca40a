import { createHash } from 'node:crypto';
import type { DiskConfig, NicConfig, SystemConfig } from './config.ts';
import type { Inventory, InventoryDisk, InventoryInterface } from './inventory-types.ts';
import { lldpTlvs } from './lldp.ts';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const SECTOR_BYTES = 512;

/** Stable per-system hex so two simulated servers never share serial numbers or WWNs. */
function fingerprint(system: SystemConfig, salt: string): string {
  return createHash('sha256').update(`${system.uuid.toLowerCase()}/${salt}`).digest('hex');
}

/** A plausible 1U server: a SATA SSD (the smallest disk, so IPA picks it as root), a SATA HDD and an NVMe drive. */
function defaultDisks(system: SystemConfig): DiskConfig[] {
  const id = (salt: string) => fingerprint(system, salt);
  return [
    {
      name: '/dev/sda',
      sizeGiB: 447.13,
      model: 'MZ7LH480HAHQ0D3',
      vendor: 'ATA',
      serial: `S45PNA0M${id('sda').slice(0, 6).toUpperCase()}`,
      wwn: `0x5002538e${id('sda-wwn').slice(0, 8)}`,
      wwnWithExtension: `0x5002538e${id('sda-wwn').slice(0, 8)}`,
      wwnVendorExtension: null,
      rotational: false,
      hctl: '0:0:0:0',
      byPath: '/dev/disk/by-path/pci-0000:00:17.0-ata-1',
      tran: 'sata',
    },
    {
      name: '/dev/sdb',
      sizeGiB: 1862.89,
      model: 'ST2000NM0055-1V4',
      vendor: 'ATA',
      serial: `ZC2${id('sdb').slice(0, 5).toUpperCase()}`,
      wwn: `0x5000c500${id('sdb-wwn').slice(0, 8)}`,
      wwnWithExtension: `0x5000c500${id('sdb-wwn').slice(0, 8)}`,
      wwnVendorExtension: null,
      rotational: true,
      hctl: '1:0:0:0',
      byPath: '/dev/disk/by-path/pci-0000:00:17.0-ata-2',
      tran: 'sata',
    },
    {
      name: '/dev/nvme0n1',
      sizeGiB: 1490.42,
      model: 'Dell Ent NVMe P5600 MU U.2 1.6TB',
      vendor: '',
      serial: `PHAB${id('nvme').slice(0, 12).toUpperCase()}`,
      wwn: `eui.${id('nvme-eui').slice(0, 16)}`,
      wwnWithExtension: null,
      wwnVendorExtension: null,
      rotational: false,
      hctl: null,
      byPath: '/dev/disk/by-path/pci-0000:3b:00.0-nvme-1',
      tran: 'nvme',
    },
  ];
}

function toInventoryDisk(disk: DiskConfig): InventoryDisk {
  const size = Math.round(disk.sizeGiB * GiB);
  return {
    name: disk.name,
    model: disk.model,
    size,
    rotational: disk.rotational,
    wwn: disk.wwn,
    serial: disk.serial === '' ? null : disk.serial,
    vendor: disk.vendor === '' ? null : disk.vendor,
    wwn_with_extension: disk.wwnWithExtension,
    wwn_vendor_extension: disk.wwnVendorExtension,
    hctl: disk.hctl,
    by_path: disk.byPath,
    logical_sectors: SECTOR_BYTES,
    physical_sectors: disk.rotational ? 4096 : SECTOR_BYTES,
    tran: disk.tran,
  };
}

function toInventoryInterface(nic: NicConfig, index: number): InventoryInterface {
  return {
    name: nic.name ?? `enp${index + 1}s0`,
    mac_address: nic.mac,
    ipv4_address: nic.ip !== undefined && !nic.ip.includes(':') ? nic.ip : null,
    ipv6_address: nic.ip !== undefined && nic.ip.includes(':') ? nic.ip : null,
    has_carrier: true,
    lldp: nic.lldp === undefined ? null : lldpTlvs(nic.lldp),
    vendor: nic.vendor ?? '0x8086',
    product: nic.product ?? '0x1572',
    client_id: null,
    biosdevname: null,
    speed_mbps: nic.speedMbps ?? 10_000,
  };
}

/** Every NIC the ramdisk sees: the BMC-listed ones first (the first one PXE boots), then the extra ones. */
export function allNics(system: SystemConfig): NicConfig[] {
  return [...system.nics, ...(system.inventory?.extraInterfaces ?? [])];
}

const DEFAULT_CPU_FLAGS = [
  'fpu', 'vme', 'de', 'pse', 'tsc', 'msr', 'pae', 'mce', 'cx8', 'apic', 'sep', 'mtrr', 'pge', 'mca', 'cmov',
  'pat', 'pse36', 'clflush', 'mmx', 'fxsr', 'sse', 'sse2', 'ht', 'syscall', 'nx', 'pdpe1gb', 'rdtscp', 'lm',
  'constant_tsc', 'nopl', 'pni', 'pclmulqdq', 'vmx', 'ssse3', 'fma', 'cx16', 'pcid', 'sse4_1', 'sse4_2',
  'x2apic', 'movbe', 'popcnt', 'aes', 'xsave', 'avx', 'f16c', 'rdrand', 'hypervisor', 'lahf_lm', 'abm',
  'avx2', 'smep', 'bmi1', 'bmi2', 'erms', 'invpcid', 'avx512f', 'avx512dq', 'rdseed', 'adx', 'smap',
];

/** The inventory IPA would collect on this server: realistic defaults, overridden by the system's config. */
export function buildInventory(system: SystemConfig): Inventory {
  const overrides = system.inventory ?? {};
  const cpu = overrides.cpu ?? {};
  const vendor = overrides.systemVendor ?? {};
  const firmware = vendor.firmware ?? {};
  const physicalMb = overrides.memoryMiB ?? 65_536;
  const interfaces = allNics(system).map(toInventoryInterface);
  return {
    interfaces,
    cpu: {
      model_name: cpu.modelName ?? 'Intel(R) Xeon(R) Gold 6338N CPU @ 2.20GHz',
      frequency: (cpu.frequencyMHz ?? 3500).toFixed(4),
      count: cpu.count ?? 32,
      architecture: cpu.architecture ?? 'x86_64',
      flags: cpu.flags ?? DEFAULT_CPU_FLAGS,
      socket_count: cpu.socketCount ?? 1,
    },
    disks: (overrides.disks ?? defaultDisks(system)).map(toInventoryDisk),
    // The kernel reserves some memory, so `total` (psutil) is a bit below the DIMM size.
    memory: { total: physicalMb * MiB - 412 * MiB, physical_mb: physicalMb },
    bmc_address: system.bmcAddress ?? null,
    bmc_v6address: null,
    system_vendor: {
      product_name: vendor.productName ?? 'PowerEdge R650',
      serial_number: vendor.serialNumber ?? fingerprint(system, 'serial').slice(0, 7).toUpperCase(),
      manufacturer: vendor.manufacturer ?? 'Dell Inc.',
      firmware: {
        vendor: firmware.vendor ?? 'Dell Inc.',
        version: firmware.version ?? '1.13.2',
        build_date: firmware.buildDate ?? '03/14/2024',
      },
    },
    boot: { current_boot_mode: overrides.bootMode ?? 'uefi', pxe_interface: system.nics[0]?.mac ?? null },
    hostname: overrides.hostname ?? system.name,
  };
}
