export interface IronicConfigOptions {
  port: number;
  stateDir: string;
  /** Where deploy kernel/ramdisk/ISO and images are served from (the artifacts server). */
  artifactsUrl: string;
  /** Ironic's own HTTP root for iPXE scripts and virtual media images, served by the artifacts server. */
  httpRoot: string;
  httpUrl: string;
  auth: { strategy: 'noauth' } | { strategy: 'http_basic'; htpasswdFile: string };
  /** The conductor's name (`[DEFAULT] host`); two Ironics side by side need their own. */
  conductorHost?: string;
  /** Serve the API over HTTPS with this certificate (Ironic's own `[api] enable_ssl_api`). */
  tls?: { certFile: string; keyFile: string };
  /**
   * Seconds between Ironic's reads of every node's power from its BMC. 10 by default, so tests
   * see a BMC's power or health change within seconds; Ironic's own default, which Metal3's
   * ironic-image keeps, is 60.
   */
  powerSyncIntervalSeconds?: number;
}

/** Ironic's `[conductor] sync_power_state_interval` default, kept by Metal3's ironic-image. */
export const IRONIC_DEFAULT_POWER_SYNC_SECONDS = 60;

/** The stack's: tests see a power or health change at the BMC within seconds. */
const STACK_POWER_SYNC_SECONDS = 10;

/**
 * Ironic standalone, single process (`rpc_transport = none`), sqlite, with the
 * hardware types and interfaces Metal3's ironic-image enables. Periodic tasks run
 * often so that the local stack reacts in seconds rather than minutes.
 */
export function renderIronicConfig(options: IronicConfigOptions): string {
  const auth =
    options.auth.strategy === 'http_basic'
      ? `auth_strategy = http_basic\nhttp_basic_auth_user_file = ${options.auth.htpasswdFile}`
      : 'auth_strategy = noauth';
  const apiUrl = `${options.tls ? 'https' : 'http'}://127.0.0.1:${options.port}`;
  const tls = options.tls ? `enable_ssl_api = true\ncert_file = ${options.tls.certFile}\nkey_file = ${options.tls.keyFile}\n` : '';
  return `[DEFAULT]
${auth}
rpc_transport = none
host = ${options.conductorHost ?? 'metal3-ts-conductor'}
debug = true
use_stderr = true
log_file =
# Ironic's own list, plus its database layer at INFO: at DEBUG, a retry on a locked sqlite
# database logs the SQL parameters, a node's driver_info with the BMC password among them. The
# agent client and deploy code at INFO too: at DEBUG they log the agent's command results, whose
# echoed write_image arguments carry the OCI registry's image_request_authorization unmasked.
# sushy's connector at INFO: at DEBUG it logs every Redfish request body, an event
# subscription's HttpHeaders (the receiver's credentials) among them.
default_log_levels = amqp=WARNING,amqplib=WARNING,qpid.messaging=INFO,oslo.messaging=INFO,oslo_messaging=INFO,stevedore=INFO,iso8601=WARNING,requests=WARNING,urllib3.connectionpool=WARNING,keystonemiddleware.auth_token=INFO,keystoneauth.session=INFO,openstack=WARNING,oslo_policy=WARNING,oslo_concurrency.lockutils=WARNING,ironic.db.sqlalchemy.api=INFO,ironic.drivers.modules.agent_client=INFO,ironic.drivers.modules.agent_base=INFO,sushy.connector=INFO
enabled_hardware_types = ipmi,redfish,fake-hardware,manual-management
enabled_bios_interfaces = no-bios,redfish,fake
enabled_boot_interfaces = ipxe,pxe,redfish-virtual-media,redfish-https,fake
enabled_console_interfaces = no-console,fake
enabled_deploy_interfaces = direct,ramdisk,custom-agent,fake
default_deploy_interface = direct
enabled_firmware_interfaces = no-firmware,redfish,fake
enabled_inspect_interfaces = agent,redfish,no-inspect,fake
default_inspect_interface = agent
enabled_management_interfaces = ipmitool,redfish,noop,fake
enabled_network_interfaces = noop
default_network_interface = noop
enabled_power_interfaces = ipmitool,redfish,fake
enabled_raid_interfaces = no-raid,agent,redfish,fake
enabled_rescue_interfaces = no-rescue,agent,fake
enabled_vendor_interfaces = no-vendor,ipmitool,redfish,fake
enabled_storage_interfaces = noop,fake

[api]
host_ip = 127.0.0.1
port = ${options.port}
api_workers = 1
public_endpoint = ${apiUrl}
${tls}# Handed to the ramdisk on lookup: IPA heartbeats every 0.3-0.6 x this, so a heartbeat
# Ironic skips (node locked) costs seconds instead of minutes.
ramdisk_heartbeat_timeout = 10

[conductor]
automated_clean = true
# As Metal3's ironic-image: no history of node events (they cost database writes). Tests read
# Ironic's log instead. Ironic then keeps a failed power sync's last_error after recovery, which
# operator/provisioner/ironic/bmc-problem.ts allows for.
node_history = False
deploy_kernel = ${options.artifactsUrl}/ipa.kernel
deploy_ramdisk = ${options.artifactsUrl}/ipa.initramfs
# ESP for the UEFI boot ISOs redfish-virtual-media builds: mkisofs only embeds it behind the El
# Torito EFI entry and nothing here runs it, so the placeholder does.
bootloader = ${options.artifactsUrl}/esp.img
sync_power_state_interval = ${options.powerSyncIntervalSeconds ?? STACK_POWER_SYNC_SECONDS}
# A BMC back after an outage: lift the power failure maintenance within seconds (default 300).
power_failure_recovery_interval = 10
check_provision_state_interval = 2
heartbeat_interval = 5
heartbeat_timeout = 60
power_state_change_timeout = 60
send_sensor_data = false

[database]
connection = sqlite:///${options.stateDir}/ironic.sqlite
sqlite_synchronous = False

[deploy]
http_url = ${options.httpUrl}
http_root = ${options.httpRoot}
fast_track = false
default_boot_option = local
erase_devices_priority = 0
erase_devices_metadata_priority = 10

[pxe]
tftp_root = ${options.stateDir}/tftpboot
tftp_master_path = ${options.stateDir}/tftpboot/master_images
images_path = ${options.stateDir}/images
instance_master_path = ${options.stateDir}/master_images
ipxe_timeout = 60

[dhcp]
dhcp_provider = none

[agent]
require_tls = false
deploy_logs_collect = never
post_deploy_get_power_state_retry_interval = 1
# sushy's fake driver applies power changes 1-11 s late; wait that long for the agent's own
# power off before falling back to a hard one.
post_deploy_get_power_state_retries = 15
command_timeout = 60

[inspector]
require_managed_boot = false
power_off = true
add_ports = all
hooks = $default_hooks,parse-lldp,local-link-connection,memory,cpu-capabilities,root-device,extra-hardware,physical-network

[ipmi]
# An IPMI BMC that does not answer (a stopped ipmi-bmc-isolated): give up on a call after about one
# ipmitool attempt (15 s) instead of retrying for 60 s, so the failure reaches last_error, and an
# idle node's power sync (4 failed syncs) its power failure maintenance, within about two minutes.
command_retry_timeout = 15

[redfish]
# Virtual media ISOs are published under [deploy] http_root/http_url instead of Swift.
use_swift = false
# A BMC that does not answer (a stopped sushy-tools): each Redfish call gives up after 2 attempts
# of about 30 s instead of 5 (2.5 minutes with the node's lock held), so the failure reaches
# last_error within a minute.
connection_attempts = 2
connection_retry_interval = 1
kernel_append_params = nofb vga=normal
# An emulated BMC is back at once after a flash: check update tasks and the BMC every 5 s and
# accept the first good answer (defaults: 60 s and three answers 30 s apart, 90 s per update).
firmware_update_status_interval = 5
firmware_update_required_successes = 1
firmware_update_validation_interval = 5

[fake]
power_delay = 0
boot_delay = 0
deploy_delay = 0
vendor_delay = 0
management_delay = 0
inspect_delay = 0
raid_delay = 0
bios_delay = 0
storage_delay = 0
rescue_delay = 0

[oci]
# The artifacts server's OCI registry is plain HTTP on loopback: Ironic tries HTTPS first and
# falls back on the TLS error, then hands the ramdisk http:// blob URLs.
permit_fallback_to_http_transport = true

[oslo_concurrency]
lock_path = ${options.stateDir}/locks

[service_catalog]
endpoint_override = ${apiUrl}
`;
}
