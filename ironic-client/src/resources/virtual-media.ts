// Virtual media: /v1/nodes/{node}/vmedia (attach/detach 1.89, get 1.93). BMO's DataImage uses it.
import { checkContract, virtualMediaContract } from '../contract.ts';
import type { VirtualMediaDevice, VirtualMediaDeviceType } from '../types.ts';
import { requireFeature } from './context.ts';
import type { ResourceContext } from './context.ts';

export interface AttachVirtualMediaOptions {
  deviceType: VirtualMediaDeviceType;
  /** http, https, nfs or cifs URL. */
  imageUrl: string;
  /** How the BMC gets the image; Ironic defaults to `local` (served by Ironic). */
  imageDownloadSource?: 'http' | 'local' | 'swift';
}

export interface VirtualMediaOperations {
  attachVirtualMedia(nodeIdent: string, options: AttachVirtualMediaOptions): Promise<void>;
  /** Detaches the given device types, or all when none are given. */
  detachVirtualMedia(nodeIdent: string, options?: { deviceTypes?: readonly VirtualMediaDeviceType[] }): Promise<void>;
  /** Needs 1.93; refused client-side on older servers. */
  getVirtualMedia(nodeIdent: string): Promise<VirtualMediaDevice[]>;
}

export function virtualMediaOperations(context: ResourceContext): VirtualMediaOperations {
  const { transport } = context;
  return {
    async attachVirtualMedia(nodeIdent, options) {
      await transport.call('post', '/v1/nodes/{node_ident}/vmedia', {
        path: { node_ident: nodeIdent },
        body: {
          device_type: options.deviceType,
          image_url: options.imageUrl,
          ...(options.imageDownloadSource !== undefined ? { image_download_source: options.imageDownloadSource } : {}),
        },
      });
    },
    async detachVirtualMedia(nodeIdent, options = {}) {
      await transport.call('delete', '/v1/nodes/{node_ident}/vmedia', {
        path: { node_ident: nodeIdent },
        query: { device_types: options.deviceTypes ? [...options.deviceTypes] : undefined },
      });
    },
    async getVirtualMedia(nodeIdent) {
      requireFeature(context, 'virtualMediaGet', 'reading virtual media');
      const result = await transport.call('get', '/v1/nodes/{node_ident}/vmedia', { path: { node_ident: nodeIdent } });
      return checkContract<VirtualMediaDevice[]>(virtualMediaContract, result.data, result.request);
    },
  };
}
