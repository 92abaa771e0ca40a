import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from './kube-object.ts';
import { OwnWrites } from './own-writes.ts';
import { allows } from './predicates.ts';

const version = (resourceVersion: string): KubeObject => ({ metadata: { name: 'host-0', namespace: 'test', resourceVersion } });

/** Own writes over a cache that holds `cachedVersion` of the object. */
function ownWrites(cachedVersion?: string): OwnWrites {
  return new OwnWrites({ cache: { getByKey: () => (cachedVersion === undefined ? undefined : version(cachedVersion)) } });
}

describe('OwnWrites', () => {
  it('drops the event of the version written, once; any other version passes', () => {
    const writes = ownWrites();
    writes.remember(version('12'));

    expect(allows(writes.filter, { type: 'update', oldObject: version('11'), object: version('12') })).toBe(false);
    expect(allows(writes.filter, { type: 'update', oldObject: version('12'), object: version('12') })).toBe(true);
    expect(allows(writes.filter, { type: 'update', oldObject: version('12'), object: version('13') })).toBe(true);
  });

  it('keeps nothing for a write whose event came first, nor past the next event or a delete', () => {
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
});
