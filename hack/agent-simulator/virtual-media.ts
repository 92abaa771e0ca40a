import { bootFromCd, NotBootableError, type CdBoot } from './boot-media.ts';
import { isLiveOs, ramdiskParameters, type RamdiskParameters } from './ramdisk-params.ts';
import type { VirtualMediaBootRecord } from './records.ts';
import type { Bmc } from './redfish.ts';

/** Ironic's boot ISOs hold the IPA kernel and ramdisk: hundreds of MiB for real ones, far less here. */
const MAX_ISO_BYTES = 2 * 1024 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 120_000;

export interface VirtualMediaBoot extends CdBoot {
  /** The image URL the BMC reports in its virtual CD drive. */
  url: string;
  parameters: RamdiskParameters;
  /** The CD holds a live OS (see isLiveOs), not the IPA ramdisk. */
  liveOs: boolean;
}

/**
 * A boot from the BMC's virtual CD drive: read which image is inserted, fetch it
 * over HTTP (sushy-tools keeps its own copy from insertion time; the URL serves the
 * same file until Ironic ejects it), and boot it as the firmware would.
 */
export async function bootVirtualCd(bmc: Bmc, systemUuid: string, bootMode: 'uefi' | 'bios'): Promise<VirtualMediaBoot> {
  const drive = await bmc.getVirtualMedia(systemUuid, 'Cd');
  if (!drive.inserted || drive.image === undefined || drive.image === '') {
    throw new NotBootableError('the virtual CD drive is empty');
  }
  const cd = bootFromCd(await downloadImage(drive.image), bootMode);
  return { ...cd, url: drive.image, parameters: ramdiskParameters(cd.commandLine), liveOs: isLiveOs(cd.commandLine) };
}

/**
 * How the firmware starts the CD: in the mode the BMC was told (sushy keeps the
 * BootSourceOverrideMode Ironic sets), else the one the inventory reports.
 */
export function firmwareBootMode(bmcMode: string | undefined, inventoryMode: 'uefi' | 'bios'): 'uefi' | 'bios' {
  if (bmcMode === 'Legacy') return 'bios';
  if (bmcMode === 'UEFI') return 'uefi';
  return inventoryMode;
}

/** What GET /records shows of the boot (never the token itself). */
export function mediaRecord(boot: VirtualMediaBoot): VirtualMediaBootRecord {
  return {
    url: boot.url,
    config: boot.configPath,
    kernel: boot.entry.kernel,
    kernelSha256: boot.kernelSha256,
    initrd: boot.entry.initrd ?? null,
    initrdSha256: boot.initrdSha256,
    commandLine: boot.entry.commandLine.replace(/(ipa-agent-token=)("[^"]*"|\S+)/g, '$1***'),
    agentToken: boot.parameters.agentToken !== undefined,
    apiUrl: boot.parameters.apiUrl ?? null,
    inspectionCallbackUrl: boot.parameters.inspectionCallbackUrl ?? null,
  };
}

async function downloadImage(url: string): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  } catch (error) {
    throw new NotBootableError(`the virtual CD image ${url} cannot be read: ${(error as Error).message}`);
  }
  if (!response.ok || response.body === null) {
    throw new NotBootableError(`the virtual CD image ${url} cannot be read: HTTP ${response.status}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    // Throwing out of the loop cancels the stream.
    if (size > MAX_ISO_BYTES) throw new NotBootableError(`the virtual CD image ${url} is larger than ${MAX_ISO_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
