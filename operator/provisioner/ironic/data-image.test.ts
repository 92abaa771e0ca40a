import { describe, expect, it } from '@jest/globals';
import { NODE_UUID, ironicError, makeNode } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import { HOST, NODE_PATH, startKit } from './testing/ironic-test-kit.ts';

useNock();
const VMEDIA = `${NODE_PATH}/vmedia`;
const ISO = 'http://127.0.0.1/data.iso';

describe('DataImage through Ironic virtual media', () => {
  it('reads whether a CD is inserted, from a fresh node', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode());
    kit.ironic.get(VMEDIA).reply(200, [{ media_types: ['CD', 'DVD'], inserted: true, image: `http://ironic/redfish/cdrom-${NODE_UUID}.iso` }, { media_types: ['Floppy'], inserted: false, image: '' }]);
    kit.ironic.get(NODE_PATH).reply(200, makeNode());
    kit.ironic.get(VMEDIA).reply(200, [{ media_types: ['CD', 'DVD'], inserted: false, image: '' }]);
    expect(await kit.provisioner.dataImageStatus({ host: HOST })).toEqual({ kind: 'done', value: { attached: true } });
    expect(await kit.provisioner.dataImageStatus({ host: HOST })).toEqual({ kind: 'done', value: { attached: false } });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${VMEDIA}`, `GET ${NODE_PATH}`, `GET ${VMEDIA}`]);
  });

  it('reports the conductor\'s failed attach from last_error, and ignores other errors', async () => {
    const kit = await startKit();
    const failure = `Could not attach device cdrom to node ${NODE_UUID}: Failed to download image ${ISO}, reason: HTTP 404`;
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ last_error: failure }));
    kit.ironic.get(VMEDIA).reply(200, []);
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ last_error: 'Redfish exception: BMC busy' }));
    kit.ironic.get(VMEDIA).reply(200, []);
    expect(await kit.provisioner.dataImageStatus({ host: HOST })).toEqual({ kind: 'done', value: { attached: false, lastFailure: failure } });
    expect(await kit.provisioner.dataImageStatus({ host: HOST })).toEqual({ kind: 'done', value: { attached: false } });
  });

  it('waits while the node is locked (BMO\'s ErrNodeIsBusy) without reading media', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ reservation: 'conductor-1' }));
    expect(await kit.provisioner.dataImageStatus({ host: HOST })).toMatchObject({ kind: 'busy', reason: `node ${NODE_UUID} is busy, retry GetVirtualMedia request in some time` });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);
  });

  it('fails with BMO\'s message below 1.93, and with Ironic\'s words when it refuses the read', async () => {
    const old = await startKit({ serverMax: '1.92' });
    expect(await old.provisioner.dataImageStatus({ host: HOST })).toEqual({ kind: 'failed', message: "ironic version=1.89 doesn't support Virtual Media Get API, needs version>=1.93" });
    expect(old.calls()).toEqual([]);
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode());
    kit.ironic.get(VMEDIA).reply(400, ironicError('Driver ipmi does not support management (disabled or not implemented).'));
    expect(await kit.provisioner.dataImageStatus({ host: HOST })).toEqual({
      kind: 'failed', message: `failed to read virtual media of node ${NODE_UUID}: Driver ipmi does not support management (disabled or not implemented).`,
    });
  });

  it('attaches as a CD served by Ironic (BMO sends no download source) and detaches everything', async () => {
    const kit = await startKit();
    kit.ironic.post(VMEDIA, { device_type: 'cdrom', image_url: ISO }).reply(204);
    kit.ironic.delete(VMEDIA).reply(204);
    expect(await kit.provisioner.attachDataImage({ host: HOST, url: ISO })).toEqual({ kind: 'done', value: undefined });
    expect(await kit.provisioner.detachDataImage({ host: HOST })).toEqual({ kind: 'done', value: undefined });
    expect(kit.calls()).toEqual([`POST ${VMEDIA}`, `DELETE ${VMEDIA}`]);
  });

  it('records a refused attach', async () => {
    const kit = await startKit();
    kit.ironic.post(VMEDIA).reply(400, ironicError('Unsupported or missing URL scheme: file'));
    expect(await kit.provisioner.attachDataImage({ host: HOST, url: 'file:///data.iso' }))
      .toEqual({ kind: 'failed', message: 'failed to attach virtual media: Unsupported or missing URL scheme: file' });
  });
});
