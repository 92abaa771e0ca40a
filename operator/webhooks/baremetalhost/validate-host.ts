import type { BareMetalHost } from '../../api/baremetalhost.ts';
import { inspectionDisabled } from '../../controllers/baremetalhost/host.ts';
import { annotationViolations } from './annotation-rules.ts';
import { bmcAccessOf, bmcDriverViolations, bmcHostnameViolations } from './bmc-rules.ts';
import { firmwareViolations } from './firmware-rules.ts';
import { imageViolations } from './image-rules.ts';
import { inspectionModeViolations } from './inspection-rules.ts';
import { nameViolations } from './name-rules.ts';
import { networkInterfaceViolations } from './network-interface-rules.ts';
import { powerViolations } from './power-rules.ts';
import { raidViolations } from './raid-rules.ts';
import { rootDeviceHintsViolations } from './root-device-hints-rules.ts';
import { secretReferenceViolations } from './secret-reference-rules.ts';
import { updateViolations } from './update-rules.ts';
import type { HostUnderValidation, HostValidationOptions } from './validation-context.ts';
import type { Violation } from '../../runtime/index.ts';

/** In BMO's order, so a host breaking several rules gets its messages in the same order. */
const CREATE_RULES: ReadonlyArray<(host: HostUnderValidation) => Violation[]> = [
  firmwareViolations,
  secretReferenceViolations,
  raidViolations,
  bmcDriverViolations,
  nameViolations,
  bmcHostnameViolations,
  rootDeviceHintsViolations,
  imageViolations,
  annotationViolations,
  inspectionModeViolations,
  powerViolations,
  networkInterfaceViolations,
];

/** Every rule BMO's webhook applies to a new host; empty when it is accepted. */
export function validateHost(host: BareMetalHost, options: HostValidationOptions): Violation[] {
  const { access, violations } = bmcAccessOf(host, options);
  const context: HostUnderValidation = { host, access, inspectionDisabled: inspectionDisabled(host) };
  return [...violations, ...CREATE_RULES.flatMap((rule) => rule(context))];
}

/** The creation rules on the new object, plus what may not change. */
export function validateHostUpdate(old: BareMetalHost, updated: BareMetalHost, options: HostValidationOptions): Violation[] {
  return [...validateHost(updated, options), ...updateViolations(old, updated)];
}
