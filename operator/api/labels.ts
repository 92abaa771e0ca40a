/**
 * Secrets a host uses get this label (value `baremetal`); the manager's Secret cache
 * selects on it, so unlabelled Secrets are invisible to the informer until labelled.
 */
export const ENVIRONMENT_LABEL = 'environment.metal3.io';
export const ENVIRONMENT_LABEL_VALUE = 'baremetal';

/**
 * Labels the operator keeps on a host from its inspected hardware (status.hardware) when
 * started with HARDWARE_LABELS=true, so a Cluster API hostSelector can pick hosts by size
 * (`matchExpressions` with `gt`/`lt` compare these decimal integers). Only these keys are
 * ever written or removed; other labels under the prefix belong to users.
 */
export const HARDWARE_LABEL_PREFIX = 'hardware.metal3.io/';
/** Logical CPUs (status.hardware.cpu.count). */
export const HARDWARE_CPU_COUNT_LABEL = `${HARDWARE_LABEL_PREFIX}cpu-count`;
/** CPU architecture as inspection reports it, e.g. x86_64 or aarch64. */
export const HARDWARE_CPU_ARCH_LABEL = `${HARDWARE_LABEL_PREFIX}cpu-arch`;
/** Memory in whole GiB, rounded down (ramMebibytes / 1024). */
export const HARDWARE_RAM_GIB_LABEL = `${HARDWARE_LABEL_PREFIX}ram-gib`;
/** Size in whole GiB, rounded down, of the root disk: the disk the image is written to. */
export const HARDWARE_DISK_GIB_LABEL = `${HARDWARE_LABEL_PREFIX}disk-gib`;
/** `hdd`, `ssd` or `nvme`: the kind of that same root disk. */
export const HARDWARE_DISK_TYPE_LABEL = `${HARDWARE_LABEL_PREFIX}disk-type`;
/** Network interfaces (one per NIC, not per address). */
export const HARDWARE_NIC_COUNT_LABEL = `${HARDWARE_LABEL_PREFIX}nic-count`;

export const HARDWARE_LABELS = [
  HARDWARE_CPU_COUNT_LABEL,
  HARDWARE_CPU_ARCH_LABEL,
  HARDWARE_RAM_GIB_LABEL,
  HARDWARE_DISK_GIB_LABEL,
  HARDWARE_DISK_TYPE_LABEL,
  HARDWARE_NIC_COUNT_LABEL,
] as const;
export type HardwareLabel = (typeof HARDWARE_LABELS)[number];

export const HARDWARE_DISK_TYPE_VALUES = ['hdd', 'ssd', 'nvme'] as const;
export type HardwareDiskTypeValue = (typeof HARDWARE_DISK_TYPE_VALUES)[number];

/** A host's failure domain, which CAPM3's Metal3Machines and BMO's HostClaims prefer when they name one. */
export const FAILURE_DOMAIN_LABEL = 'infrastructure.cluster.x-k8s.io/failure-domain';
