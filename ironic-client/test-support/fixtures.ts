// Realistic Ironic response bodies for unit tests, shaped after Ironic 39's controllers.
import type { Node, Port } from '../src/types.ts';

export const ENDPOINT = 'http://ironic.test:6385';
export const NODE_UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';
export const PORT_UUID = '6d85703a-565d-469a-96ce-30b6de53079d';

function links(resource: string): Node['links'] {
  return [
    { href: `${ENDPOINT}/v1/${resource}`, rel: 'self' },
    { href: `${ENDPOINT}/${resource}`, rel: 'bookmark' },
  ];
}

export function makeNode(overrides: Partial<Node> = {}): Node {
  return {
    uuid: NODE_UUID,
    name: 'metal3~worker-0',
    created_at: '2026-08-20T10:00:00+00:00',
    updated_at: '2026-08-20T10:05:00+00:00',
    links: links(`nodes/${NODE_UUID}`),
    driver: 'redfish',
    driver_info: { redfish_address: 'http://bmc.test:8000', redfish_system_id: '/redfish/v1/Systems/1', redfish_password: '******' },
    driver_internal_info: {},
    properties: { cpu_arch: 'x86_64', capabilities: 'boot_mode:uefi' },
    instance_info: {},
    instance_uuid: null,
    extra: {},
    chassis_uuid: null,
    power_state: 'power off',
    target_power_state: null,
    provision_state: 'manageable',
    target_provision_state: null,
    provision_updated_at: '2026-08-20T10:05:00+00:00',
    maintenance: false,
    maintenance_reason: null,
    fault: null,
    console_enabled: false,
    last_error: null,
    reservation: null,
    resource_class: 'baremetal',
    inspection_started_at: null,
    inspection_finished_at: null,
    clean_step: {},
    deploy_step: {},
    service_step: {},
    raid_config: {},
    target_raid_config: {},
    bios_interface: 'redfish',
    boot_interface: 'redfish-virtual-media',
    console_interface: 'no-console',
    deploy_interface: 'direct',
    firmware_interface: 'redfish',
    inspect_interface: 'agent',
    management_interface: 'redfish',
    network_interface: 'noop',
    power_interface: 'redfish',
    raid_interface: 'redfish',
    rescue_interface: 'no-rescue',
    storage_interface: 'noop',
    vendor_interface: 'redfish',
    traits: [],
    conductor_group: '',
    automated_clean: true,
    protected: false,
    protected_reason: null,
    conductor: 'conductor-0',
    owner: null,
    description: null,
    allocation_uuid: null,
    retired: false,
    retired_reason: null,
    lessee: null,
    network_data: {},
    boot_mode: 'uefi',
    secure_boot: false,
    shard: null,
    parent_node: null,
    disable_power_off: false,
    instance_name: null,
    health: 'OK',
    ...overrides,
  };
}

export function makePort(overrides: Partial<Port> = {}): Port {
  return {
    uuid: PORT_UUID,
    address: '52:54:00:12:34:56',
    node_uuid: NODE_UUID,
    links: links(`ports/${PORT_UUID}`),
    created_at: '2026-08-20T10:00:00+00:00',
    updated_at: null,
    extra: {},
    internal_info: {},
    local_link_connection: {},
    pxe_enabled: true,
    physical_network: null,
    portgroup_uuid: null,
    is_smartnic: false,
    name: null,
    ...overrides,
  };
}

/** Ironic's error body: error_message holds JSON text of the fault. */
export function ironicError(faultstring: string, faultcode = 'Client'): { error_message: string } {
  return { error_message: JSON.stringify({ faultcode, faultstring, debuginfo: null }) };
}

export function lockedError(node = NODE_UUID): { error_message: string } {
  return ironicError(`Node ${node} is locked by host conductor-0, please retry after the current operation is completed.`);
}

export function v1Root(max: string, min = '1.1') {
  return {
    id: 'v1',
    links: [{ href: `${ENDPOINT}/v1/`, rel: 'self' }],
    media_types: { base: 'application/json', type: 'application/vnd.openstack.ironic.v1+json' },
    nodes: links('nodes'),
    ports: links('ports'),
    drivers: links('drivers'),
    version: { id: 'v1', links: [{ href: `${ENDPOINT}/v1/`, rel: 'self' }], status: 'CURRENT', min_version: min, version: max },
  };
}
