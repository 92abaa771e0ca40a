import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from './kube-object.ts';
import { OwnWrites } from './own-writes.ts';
import { allows } from './predicates.ts';

const version = (resourceVersion: string): KubeObject => ({ metadata: { name: 'host-0', namespace: 'test', resourceVersion } });

/** Own writes over a cache that holds `cachedVersion` of the object. */
function ownWrites(cachedVersion?: string, redelivered: KubeObject[] = []): OwnWrites {
  return new OwnWrites({ cache: { getByKey: () => (cachedVersion === undefined ? undefined : version(cachedVersion)) }, redeliver: (object) => redelivered.push(object) });
}

describe('OwnWrites', () => {
  it('drops the event of the version written, once; any other version passes', () => {
    const writes = ownWrites();
    writes.remember(version('12'));

    expect(allows(writes.filter, { type: 'update', oldObject: version('11'), object: version('12') })).toBe(false);
    expect(allows(writes.filter, { type: 'update', oldObject: version('12'), object: version('12') })).toBe(true);
    expect(allows(writes.filter, { type: 'update', oldObject: version('12'), object: version('13') })).toBe(true);
  });

  it('drops the events of several writes in one pass, in order', () => {
    const writes = ownWrites();
    writes.remember(version('12'));
    writes.remember(version('13'));

    expect(allows(writes.filter, { type: 'update', oldObject: version('11'), object: version('12') })).toBe(false);
    expect(allows(writes.filter, { type: 'update', oldObject: version('12'), object: version('13') })).toBe(false);
    expect(allows(writes.filter, { type: 'update', oldObject: version('13'), object: version('14') })).toBe(true);
  });

  it('keeps nothing for a write whose event came first, nor past another version\'s event or a delete', () => {
    const early = ownWrites('12');
    early.remember(version('12'));
    expect(allows(early.filter, { type: 'update', oldObject: version('11'), object: version('12') })).toBe(true);

    const overtaken = ownWrites();
    overtaken.remember(version('12'));
    expect(allows(overtaken.filter, { type: 'update', oldObject: version('12'), object: version('14') })).toBe(true);
    expect(allows(overtaken.filter, { type: 'update', oldObject: version('14'), object: version('12') })).toBe(true);

    const deleted = ownWrites();
    deleted.remember(version('12'));
    expect(allows(deleted.filter, { type: 'delete', object: version('11'), finalStateUnknown: false })).toBe(true);
    expect(allows(deleted.filter, { type: 'create', object: version('12') })).toBe(true);
  });

  it('is settled for an object once the cache has seen each of its writes', async () => {
    const writes = ownWrites();
    expect(writes.settled('test/host-0')).toBe(true);
    let answer!: (object: KubeObject) => void;
    const writing = writes.write('test/host-0', () => new Promise<KubeObject>((resolve) => (answer = resolve)));
    expect(writes.settled('test/host-0')).toBe(false);
    answer(version('12'));
    await writing;
    expect(writes.settled('test/host-0')).toBe(false);
    expect(writes.settled('test/host-1')).toBe(true);
    allows(writes.filter, { type: 'update', oldObject: version('11'), object: version('12') });
    expect(writes.settled('test/host-0')).toBe(true);
    // A write whose event came first leaves nothing to wait for.
    const early = ownWrites('13');
    await early.write('test/host-0', async () => version('13'));
    expect(early.settled('test/host-0')).toBe(true);
  });

  it('drops events while a write is on its way, and hands the last one on when the write fails', async () => {
    const redelivered: KubeObject[] = [];
    const writes = ownWrites(undefined, redelivered);
    let answer!: (object: KubeObject) => void;
    const succeeding = writes.write('test/host-0', () => new Promise<KubeObject>((resolve) => (answer = resolve)));
    // The write's own event, before its answer.
    expect(allows(writes.filter, { type: 'update', oldObject: version('11'), object: version('12') })).toBe(false);
    answer(version('12'));
    await succeeding;
    expect(allows(writes.filter, { type: 'update', oldObject: version('12'), object: version('13') })).toBe(true);
    expect(redelivered).toEqual([]);

    let refuse!: (error: Error) => void;
    const failing = writes.write('test/host-0', () => new Promise<KubeObject>((_resolve, reject) => (refuse = reject)));
    expect(allows(writes.filter, { type: 'update', oldObject: version('13'), object: version('14') })).toBe(false);
    refuse(new Error('conflict'));
    await expect(failing).rejects.toThrow('conflict');
    expect(redelivered).toEqual([version('14')]);
  });
});
