/** Finalizer names as BMO writes them; existing objects carry these, so they must not change. */
export const BAREMETALHOST_FINALIZER = 'baremetalhost.metal3.io';
export const SECRET_FINALIZER = `${BAREMETALHOST_FINALIZER}/secret`;
export const HARDWARE_DATA_FINALIZER = `${BAREMETALHOST_FINALIZER}/hardwareData`;
export const PREPROVISIONING_IMAGE_FINALIZER = `${BAREMETALHOST_FINALIZER}/preprovisioningImage`;
/** BMO's DataImage finalizer: held until the image is detached from the host. */
export const DATAIMAGE_FINALIZER = 'dataimage.metal3.io';
/** BMO's BMCEventSubscription finalizer: held until the subscription is removed from the BMC. */
export const BMCEVENTSUBSCRIPTION_FINALIZER = 'bmceventsubscription.metal3.io';
/** BMO's PreprovisioningImage finalizer, held by the image provider until it discarded the image. */
export const PREPROVISIONINGIMAGE_FINALIZER = 'preprovisioningimage.metal3.io';
