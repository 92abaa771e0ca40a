// BMO's DataImage calls: Ironic's virtual media API (attach/detach 1.89, read 1.93). Attach and
// detach run on the conductor after Ironic accepted them; their failures land in last_error.
import type { DataImageReading, HostIdentity } from '../provisioner.ts';
import { NeedsRegistrationError, done, failed } from '../result.ts';
import type { ProvisionerResult } from '../result.ts';
import type { ProvisionerContext } from './context.ts';
import { isBadRequest, isNotFound, writeRefused } from './ironic-errors.ts';
import { ironicNodeName } from './node-name.ts';

/** How Ironic's conductor words a failed attach or detach (do_attach_virtual_media, detach_virtual_media). */
const VMEDIA_FAILURE = /^Could not (attach|detach) device/;

const identOf = (host: HostIdentity) => host.nodeId || ironicNodeName(host);
/** After a write: the lock it took shows on the next read. */
const forgetNode = (context: ProvisionerContext, host: HostIdentity) => context.nodes.forget({ uuid: identOf(host), name: ironicNodeName(host) });

export async function dataImageStatus(context: ProvisionerContext, options: { host: HostIdentity }): Promise<ProvisionerResult<DataImageReading>> {
  const { client } = context;
  if (!client.features.virtualMediaGet) {
    return failed(`ironic version=${client.microversion} doesn't support Virtual Media Get API, needs version>=1.93`);
  }
  const ident = identOf(options.host);
  // Fresh, not cached: the lock and last_error say whether an attach or detach is still running or failed.
  let node;
  try {
    node = await client.nodes.get(ident);
  } catch (error) {
    if (isNotFound(error)) throw new NeedsRegistrationError(`node ${ident} not found in Ironic`);
    throw error;
  }
  context.nodes.remember(node);
  // A locked node would refuse the read anyway; it is most likely our own attach or detach.
  if (node.reservation) return context.delays.short(`node ${node.uuid} is busy, retry GetVirtualMedia request in some time`);
  let media;
  try {
    media = await client.nodes.getVirtualMedia(node.uuid);
  } catch (error) {
    // e.g. a driver without virtual media: Ironic's own words, recorded on the DataImage.
    if (isBadRequest(error)) return failed(`failed to read virtual media of node ${node.uuid}: ${error.faultstring}`);
    throw error;
  }
  const attached = media.some((device) => device.inserted === true);
  const lastError = node.last_error ?? '';
  return done(VMEDIA_FAILURE.test(lastError) ? { attached, lastFailure: lastError } : { attached });
}

export async function attachDataImage(context: ProvisionerContext, options: { host: HostIdentity; url: string }): Promise<ProvisionerResult> {
  try {
    await context.client.nodes.attachVirtualMedia(identOf(options.host), { deviceType: 'cdrom', imageUrl: options.url });
  } catch (error) {
    return writeRefused('failed to attach virtual media', error, context.delays);
  }
  forgetNode(context, options.host);
  return done();
}

export async function detachDataImage(context: ProvisionerContext, options: { host: HostIdentity }): Promise<ProvisionerResult> {
  try {
    await context.client.nodes.detachVirtualMedia(identOf(options.host));
  } catch (error) {
    return writeRefused('failed to detach virtual media', error, context.delays);
  }
  forgetNode(context, options.host);
  return done();
}
