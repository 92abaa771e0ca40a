import { z } from 'zod';
import { bootModeSchema } from './baremetalhost-enums.ts';
import { crdOmit, crdRequired } from './crd/markers.ts';
import { customDeploySchema } from './custom-deploy.ts';
import { firmwareConfigSchema } from './firmware-config.ts';
import { imageSchema } from './image.ts';
import { provisioningStateSchema } from './provisioning-state.ts';
import { raidConfigSchema } from './raid.ts';
import { rootDeviceHintsSchema } from './root-device-hints.ts';

/** What the provisioner is doing and what it last applied. */
export const provisionStatusSchema = z.object({
  // BMO's CRD leaves the state an open string; zod still insists on a state we know.
  state: crdRequired(crdOmit(provisioningStateSchema.default(''), ['default', 'enum']))
    .describe('Position in the provisioning state machine.'),
  ID: crdRequired(crdOmit(z.string().default(''), ['default'])).describe('Node id in the provisioning backend (the Ironic node UUID).'),
  image: imageSchema.optional().describe('Image last provisioned successfully; a non-empty url means the host was provisioned.'),
  rootDeviceHints: rootDeviceHintsSchema.optional().describe('Root device hints used for provisioning.'),
  bootMode: bootModeSchema.optional().describe('Boot mode used.'),
  raid: raidConfigSchema.optional().describe('RAID layout applied.'),
  firmware: firmwareConfigSchema.optional().describe('Deprecated and always empty.'),
  customDeploy: customDeploySchema.optional().describe('Custom deploy step applied.'),
});

export type ProvisionStatus = z.output<typeof provisionStatusSchema>;
