import { describe, expect, it } from '@jest/globals';
import { hasNodeBackup, isBackedUp, nodeBackupAnnotations, nodeRestorePatch } from './node-backup.ts';

const LABELS = 'remediation.metal3.io/node-labels-backup';
const ANNOTATIONS = 'remediation.metal3.io/node-annotations-backup';

describe('Node backup', () => {
  const node = { labels: { 'kubernetes.io/hostname': 'w1', team: 'blue' }, annotations: { note: 'keep me' } };

  it('keeps labels and annotations as JSON in the remediation annotations CAPM3 uses', () => {
    const backup = nodeBackupAnnotations(node);
    expect(backup).toEqual({ [LABELS]: JSON.stringify(node.labels), [ANNOTATIONS]: JSON.stringify(node.annotations) });
    expect(isBackedUp(backup, node)).toBe(true);
    expect(isBackedUp(backup, { ...node, labels: { team: 'red' } })).toBe(false);
    expect(hasNodeBackup(backup)).toBe(true);
    expect(hasNodeBackup({})).toBe(false);
  });

  it('restores only what the re-registered Node lacks', () => {
    const backup = nodeBackupAnnotations(node);
    expect(nodeRestorePatch(backup, { labels: { 'kubernetes.io/hostname': 'w1-new' } })).toEqual({
      patch: { labels: { team: 'blue' }, annotations: { note: 'keep me' } }, unreadable: [],
    });
    expect(nodeRestorePatch(backup, node)).toEqual({ patch: undefined, unreadable: [] });
  });

  it('reports a backup that is not a JSON object instead of failing', () => {
    expect(nodeRestorePatch({ [LABELS]: '[1]', [ANNOTATIONS]: '{"a":"b"}' }, {})).toEqual({
      patch: { annotations: { a: 'b' } }, unreadable: [LABELS],
    });
  });
});
