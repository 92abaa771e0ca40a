import { describe, expect, it } from '@jest/globals';
import { IronicVersionUnsupportedError } from '../errors.ts';
import { NODE_UUID } from '../../test-support/fixtures.ts';
import { connectTestClient, ironic } from '../../test-support/ironic-mock.ts';
import { useNock } from '../../test-support/nock-lifecycle.ts';

useNock();
const path = `/v1/nodes/${NODE_UUID}/vmedia`;

describe('nodes: virtual media', () => {
  it('attaches an image', async () => {
    const { client } = await connectTestClient();
    ironic().post(path, { device_type: 'cdrom', image_url: 'http://images/live.iso', image_download_source: 'http' }).reply(204);
    await client.nodes.attachVirtualMedia(NODE_UUID, { deviceType: 'cdrom', imageUrl: 'http://images/live.iso', imageDownloadSource: 'http' });
  });

  it('detaches some or all devices', async () => {
    const { client } = await connectTestClient();
    ironic().delete(path).query({ device_types: 'cdrom,disk' }).reply(204).delete(path).reply(204);
    await client.nodes.detachVirtualMedia(NODE_UUID, { deviceTypes: ['cdrom', 'disk'] });
    await client.nodes.detachVirtualMedia(NODE_UUID);
  });

  it('reads attached media at 1.93 or later', async () => {
    const { client } = await connectTestClient({ serverMax: '1.93' });
    const media = [{ media_types: ['CD', 'DVD'], inserted: true, image: 'http://images/live.iso' }];
    ironic('1.93').get(path).reply(200, media);
    expect(await client.nodes.getVirtualMedia(NODE_UUID)).toEqual(media);
  });

  it('refuses to read media at 1.89 without calling Ironic', async () => {
    const { client } = await connectTestClient({ serverMax: '1.92' });
    const error = await client.nodes.getVirtualMedia(NODE_UUID).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IronicVersionUnsupportedError);
    expect(error).toMatchObject({ requiredVersion: '1.93', availableVersion: '1.89', kind: 'version_unsupported' });
  });
});
