import type { BareMetalHost } from '../../operator/api/index.ts';
import type { Metal3Machine } from '../api/index.ts';

export interface HostData {
  userData?: { name: string; namespace: string };
  metaData?: { name: string; namespace: string };
  networkData?: { name: string; namespace: string };
}

/**
 * CAPM3's setHostSpec as a merge-patch fragment of `spec` (empty when nothing differs):
 * the image (or custom deploy) and the data Secrets only while the host has neither, so a
 * provisioned host is never re-imaged; `online: true` and the cleaning mode always.
 */
export function hostSpecChanges(host: BareMetalHost, machine: Metal3Machine, data: HostData): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  const spec = machine.spec;
  if (!host.spec.image && !host.spec.customDeploy && data.userData) {
    if (spec.image) {
      changes.image = {
        url: spec.image.url,
        ...(spec.image.checksum ? { checksum: spec.image.checksum } : {}),
        ...(spec.image.checksumType ? { checksumType: spec.image.checksumType } : {}),
        ...(spec.image.diskFormat ? { format: spec.image.diskFormat } : {}),
      };
    }
    if (spec.customDeploy) changes.customDeploy = { method: spec.customDeploy.method };
    changes.userData = data.userData;
    if (data.metaData) changes.metaData = data.metaData;
    if (data.networkData) changes.networkData = data.networkData;
  }
  if (spec.automatedCleaningMode && host.spec.automatedCleaningMode !== spec.automatedCleaningMode) {
    changes.automatedCleaningMode = spec.automatedCleaningMode;
  }
  if (host.spec.online !== true) changes.online = true;
  return changes;
}

/** The spec fields CAPM3 clears on release; `online` per power-off policy, cleaning mode and fast track. */
export function hostReleaseSpecChanges(host: BareMetalHost, options: { fastTrack: boolean }): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const field of ['image', 'customDeploy', 'userData', 'metaData', 'networkData'] as const) {
    if (host.spec[field] !== undefined) changes[field] = null;
  }
  // A host that may not be powered off stays on (BMO's webhook refuses `online: false` for it);
  // otherwise cleaning needs the host on only when it is cleaned, and fast track keeps the ramdisk running.
  const online = host.spec.disablePowerOff === true || (host.spec.automatedCleaningMode !== 'disabled' && options.fastTrack);
  if (host.spec.online !== online) changes.online = online;
  return changes;
}
