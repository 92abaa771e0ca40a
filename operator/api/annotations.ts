/** Annotation keys BMO reads on a BareMetalHost; users and Cluster API tooling rely on these exact names. */

/** Any value stops reconciliation until removed (`clusterctl move` uses it). */
export const PAUSED_ANNOTATION = 'baremetalhost.metal3.io/paused';

/**
 * Put by `clusterctl move` on each object it is about to delete from the source cluster, once
 * the object exists in the target. Its JSON patch replaces every other annotation, the pause
 * included, so a host that carries it is being moved, never deleted: its Ironic node and its
 * server belong to the target now.
 */
export const DELETE_FOR_MOVE_ANNOTATION = 'clusterctl.cluster.x-k8s.io/delete-for-move';

/** Removes the host from Ironic without deprovisioning; value empty or JSON detach arguments. */
export const DETACHED_ANNOTATION = 'baremetalhost.metal3.io/detached';

/** JSON copy of a status, restored only into a host whose status is empty (pivoting). */
export const STATUS_ANNOTATION = 'baremetalhost.metal3.io/status';

/** Bare key: one-shot reboot. `reboot.metal3.io/<owner>` keys hold the host off until all are gone. */
export const REBOOT_ANNOTATION_PREFIX = 'reboot.metal3.io';

/** `disabled` skips inspection (legacy form of spec.inspectionMode); an empty value asks for re-inspection. */
export const INSPECT_ANNOTATION = 'inspect.metal3.io';
export const INSPECT_ANNOTATION_DISABLED = 'disabled';

/** JSON HardwareDetails supplied by the user when inspection is disabled. */
export const HARDWARE_DETAILS_ANNOTATION = `${INSPECT_ANNOTATION}/hardwaredetails`;
