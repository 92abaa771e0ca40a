// Realistic `GET /v1/nodes/{id}/inventory` bodies, shaped like what IPA and Ironic store.

/** A dual-socket rack server: NVMe + SAS disks, a dual-stack NIC with LLDP, an unplugged NIC. */
export const rackServerInventory = {
  inventory: {
    bmc_address: '10.10.0.21',
    bmc_v6address: '::/0',
    boot: { current_boot_mode: 'uefi', pxe_interface: 'b4:96:91:1c:2e:40' },
    cpu: {
      architecture: 'x86_64',
      count: 64,
      flags: ['vmx', 'avx2', 'aes', 'sse4_2', 'avx512f'],
      frequency: '2899.9990',
      model_name: 'Intel(R) Xeon(R) Gold 6326 CPU @ 2.90GHz',
      socket_count: 2,
    },
    disks: [
      {
        by_path: '/dev/disk/by-path/pci-0000:c1:00.0-nvme-1',
        hctl: null,
        model: 'Dell Ent NVMe P5600 MU U.2 1.6TB',
        name: '/dev/nvme0n1',
        rotational: false,
        serial: 'PHAB123400AB1P6AGN',
        size: 1600321314816,
        uuid: null,
        vendor: null,
        wwn: 'eui.01000000000000005cd2e4e8f7a25151',
        wwn_vendor_extension: null,
        wwn_with_extension: 'eui.01000000000000005cd2e4e8f7a25151',
      },
      {
        by_path: '/dev/disk/by-path/pci-0000:18:00.0-scsi-0:2:0:0',
        hctl: '0:2:0:0',
        model: 'PERC H755 Front',
        name: '/dev/sda',
        rotational: true,
        serial: '6f4ee0806c2e55002a9c4bd1a0b3d0e1',
        size: 1199638052864,
        vendor: 'DELL',
        wwn: '0x6f4ee0806c2e5500',
        wwn_vendor_extension: '0x2a9c4bd1a0b3d0e1',
        wwn_with_extension: '0x6f4ee0806c2e55002a9c4bd1a0b3d0e1',
      },
    ],
    hostname: 'worker-0.lab.example.com',
    interfaces: [
      {
        biosdevname: null,
        client_id: null,
        has_carrier: true,
        ipv4_address: '192.168.111.20',
        ipv6_address: 'fd2e:6f44:5dd8:c956::14',
        lldp: [[1, '04b49691ff1c00']],
        mac_address: 'b4:96:91:1c:2e:40',
        name: 'eno12399',
        pci_address: '0000:31:00.0',
        product: '0x159b',
        speed_mbps: 25000,
        vendor: '0x8086',
      },
      {
        biosdevname: null,
        client_id: null,
        has_carrier: false,
        ipv4_address: null,
        ipv6_address: null,
        lldp: null,
        mac_address: 'b4:96:91:1c:2e:41',
        name: 'eno12409',
        pci_address: '0000:31:00.1',
        product: '0x159b',
        speed_mbps: null,
        vendor: '0x8086',
      },
    ],
    memory: { physical_mb: 262144, total: 269721743360 },
    system_vendor: {
      firmware: { build_date: '03/14/2024', vendor: 'Dell Inc.', version: '1.13.2' },
      manufacturer: 'Dell Inc.',
      product_name: 'PowerEdge R650 (SKU=0924;ModelName=PowerEdge R650)',
      serial_number: 'J3XK4T3',
    },
  },
  plugin_data: {
    all_interfaces: {
      eno12399: { ip: '192.168.111.20', mac: 'b4:96:91:1c:2e:40', pxe_enabled: true, client_id: null },
      eno12409: { ip: null, mac: 'b4:96:91:1c:2e:41', pxe_enabled: false, client_id: null },
    },
    boot_interface: 'b4:96:91:1c:2e:40',
    macs: ['b4:96:91:1c:2e:40'],
    parsed_lldp: {
      eno12399: {
        switch_chassis_id: '64:64:9b:31:12:00',
        switch_port_id: 'Ethernet1/7',
        switch_system_name: 'leaf-01.lab.example.com',
        switch_port_vlans: [
          { id: 100, name: 'provisioning' },
          { id: 200, name: 'storage' },
        ],
        switch_port_untagged_vlan_id: 100,
      },
    },
    root_disk: { name: '/dev/nvme0n1', size: 1600321314816 },
    error: null,
  },
};

/** A libvirt VM as seen in metal3-dev-env: virtio disk and NIC, sparse DMI data. */
export const virtualMachineInventory = {
  inventory: {
    bmc_address: '0.0.0.0',
    cpu: { architecture: 'x86_64', count: 2, flags: ['fpu', 'sse2'], frequency: '', model_name: 'QEMU Virtual CPU version 2.5+' },
    disks: [{ name: '/dev/vda', by_path: null, rotational: true, size: 53687091200, vendor: '0x1af4', model: '', serial: null, hctl: null }],
    hostname: 'localhost.localdomain',
    interfaces: [
      { name: 'enp1s0', mac_address: '00:ee:d0:b8:47:7e', ipv4_address: '172.22.0.55', vendor: '0x1af4', product: '0x0001', speed_mbps: -1 },
      { name: 'enp2s0', mac_address: '00:ee:d0:b8:47:7f', ipv4_address: null, ipv6_address: 'fe80::2ee:d0ff:feb8:477f', vendor: '0x1af4', product: null },
    ],
    memory: { physical_mb: 16384, total: 16496934912 },
    system_vendor: { manufacturer: 'Red Hat', product_name: 'KVM', serial_number: '', firmware: null },
  },
  plugin_data: {
    all_interfaces: { enp1s0: { pxe_enabled: true }, enp2s0: { pxe_enabled: false } },
  },
};
