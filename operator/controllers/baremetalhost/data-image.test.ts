import { describe, expect, it } from '@jest/globals';
import { REBOOT_ANNOTATION_PREFIX } from '../../api/annotations.ts';
import type { DataImage } from '../../api/dataimage.ts';
import { busy, done, failed } from '../../provisioner/result.ts';
import { formatTime } from '../../runtime/conditions.ts';
import { manageHostPower } from './power.ts';
import { ScriptedProvisioner, withNode } from './testing/scripted-provisioner.ts';
import { TEST_NOW, contextFor, hostFor, reasonsOf, registeredStatus } from './testing/hosts.ts';
import type { TestContext } from './testing/hosts.ts';

const HOST = { namespace: 'test', name: 'host-0' };
const ISO = 'http://127.0.0.1/data.iso';
const image = (extra: Partial<DataImage> = {}): DataImage => ({ metadata: { ...HOST, uid: 'di-uid' }, spec: { url: ISO }, ...extra });
/** A provisioned host turned off by a one-shot reboot, about to be powered on again. */
const rebooting = () => hostFor({ metadata: { annotations: { [REBOOT_ANNOTATION_PREFIX]: '' } }, status: registeredStatus('provisioned', { poweredOn: false }) });

function setUp(dataImage?: DataImage): { provisioner: ScriptedProvisioner; context: TestContext } {
  const provisioner = new ScriptedProvisioner();
  withNode(provisioner, HOST, { poweredOn: false });
  const context = contextFor(provisioner);
  if (dataImage) context.dataImage.current = dataImage;
  return { provisioner, context };
}

describe('DataImage on a provisioned host being powered on (BMO\'s handleDataImageActions)', () => {
  it('attaches the image before the reboot annotation goes and the host powers on', async () => {
    const { provisioner, context } = setUp(image());
    const host = rebooting();
    expect(await manageHostPower(host, context)).toEqual({ kind: 'continue', afterMs: 5000 });
    expect(provisioner.callsOf('attachDataImage')).toEqual([{ host: expect.objectContaining({ name: 'host-0' }), url: ISO }]);
    expect(context.removedAnnotations).toEqual([]);
    expect(context.dataImageWrites.at(-1)).toEqual({ lastReconciled: formatTime(TEST_NOW), attachedImage: { url: ISO }, error: { count: 0, message: '' } });
    // Attached: errors cleared, then the reboot completes.
    expect(await manageHostPower(host, context)).toEqual({ kind: 'continue' });
    expect(context.removedAnnotations).toEqual([[REBOOT_ANNOTATION_PREFIX]]);
    expect(provisioner.callsOf('attachDataImage')).toHaveLength(1);
  });

  it('leaves hosts alone that are on, not provisioned or have no DataImage', async () => {
    const on = setUp(image());
    provisionerPowered(on.provisioner, true);
    await manageHostPower(hostFor({ status: registeredStatus('provisioned', { poweredOn: true }) }), on.context);
    const available = setUp(image());
    await manageHostPower(hostFor({ status: registeredStatus('available', { poweredOn: false }) }), available.context);
    const none = setUp();
    await manageHostPower(rebooting(), none.context);
    for (const { provisioner } of [on, available, none]) expect(provisioner.callsOf('dataImageStatus')).toEqual([]);
  });

  it('detaches a deleted DataImage, then lets the host power on', async () => {
    const { provisioner, context } = setUp(image({ metadata: { ...HOST, deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { attachedImage: { url: ISO } } }));
    provisioner.nodeOf(HOST)!.virtualMedia = ISO;
    const host = rebooting();
    expect(await manageHostPower(host, context)).toEqual({ kind: 'continue', afterMs: 5000 });
    expect(provisioner.callsOf('detachDataImage')).toHaveLength(1);
    // Detached: the recorded URL is cleared first, then power handling goes on.
    expect(await manageHostPower(host, context)).toEqual({ kind: 'continue' });
    expect(context.dataImage.current?.status?.attachedImage).toEqual({ url: '' });
    expect(await manageHostPower(host, context)).toEqual({ kind: 'continue' });
    expect(context.removedAnnotations).toEqual([[REBOOT_ANNOTATION_PREFIX]]);
  });

  it('swaps the image when the URL changed: detach, then attach the new one', async () => {
    const { provisioner, context } = setUp(image({ spec: { url: `${ISO}.new` }, status: { attachedImage: { url: ISO } } }));
    provisioner.nodeOf(HOST)!.virtualMedia = ISO;
    const host = rebooting();
    await manageHostPower(host, context);
    await manageHostPower(host, context);
    await manageHostPower(host, context);
    expect(provisioner.calls.map((call) => call.verb).filter((verb) => verb.endsWith('DataImage'))).toEqual(['detachDataImage', 'attachDataImage']);
    expect(provisioner.nodeOf(HOST)!.virtualMedia).toBe(`${ISO}.new`);
  });

  it('counts an attach that failed on the conductor with Ironic\'s words, backs off, and keeps the host off', async () => {
    const failure = 'Could not attach device cdrom to node n-1: Failed to download image';
    const { provisioner, context } = setUp(image());
    provisioner.script('attachDataImage', done()).script('dataImageStatus', done({ attached: false }), done({ attached: false, lastFailure: failure }));
    const host = rebooting();
    await manageHostPower(host, context);
    const action = await manageHostPower(host, context);
    expect(action).toEqual({ kind: 'continue', afterMs: 120_000 });
    expect(context.dataImage.current?.status).toMatchObject({ attachedImage: { url: '' }, error: { count: 1, message: failure } });
    expect(reasonsOf(context)).toEqual(['DataImageError']);
    expect(provisioner.callsOf('powerOn')).toEqual([]);
    expect(context.removedAnnotations).toEqual([]);
    // The retry attaches again; its success clears the count.
    await manageHostPower(host, context);
    await manageHostPower(host, context);
    expect(context.dataImage.current?.status?.error).toEqual({ count: 0, message: '' });
  });

  it('records a refused request or an unreadable status, but not a busy node', async () => {
    const { provisioner, context } = setUp(image());
    provisioner.script('dataImageStatus', busy(3000, 'node is busy'), failed("ironic version=1.89 doesn't support Virtual Media Get API, needs version>=1.93"));
    const host = rebooting();
    expect(await manageHostPower(host, context)).toEqual({ kind: 'continue', afterMs: 3000 });
    expect(context.dataImageWrites).toEqual([]);
    await manageHostPower(host, context);
    expect(context.dataImage.current?.status?.error).toEqual({ count: 1, message: "ironic version=1.89 doesn't support Virtual Media Get API, needs version>=1.93" });
    provisioner.script('attachDataImage', failed('failed to attach virtual media: Unsupported or missing URL scheme: file'));
    expect(await manageHostPower(host, context)).toEqual({ kind: 'continue', afterMs: 240_000 });
    expect(context.dataImage.current?.status?.error).toEqual({ count: 2, message: 'failed to attach virtual media: Unsupported or missing URL scheme: file' });
  });

  it('counts a detach that failed on the conductor once, retrying it', async () => {
    const failure = 'Could not detach device(s) None from node n-1: BMC refused';
    const { provisioner, context } = setUp(image({ metadata: { ...HOST, deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { attachedImage: { url: ISO } } }));
    provisioner.nodeOf(HOST)!.virtualMedia = ISO;
    provisioner.script('detachDataImage', done()).script('dataImageStatus', done({ attached: true }), done({ attached: true, lastFailure: failure }));
    const host = rebooting();
    await manageHostPower(host, context);
    expect(await manageHostPower(host, context)).toEqual({ kind: 'continue', afterMs: 120_000 });
    expect(provisioner.callsOf('detachDataImage')).toHaveLength(2);
    expect(context.dataImage.current?.status?.error).toEqual({ count: 1, message: failure });
  });
});

function provisionerPowered(provisioner: ScriptedProvisioner, on: boolean): void {
  provisioner.nodeOf(HOST)!.poweredOn = on;
}
