import { describe, expect, it } from '@jest/globals';
import { hasOutOfServiceTaint, nodeRemovalFor, withOutOfServiceTaint, withoutOutOfServiceTaint } from './out-of-service.ts';

describe('the out-of-service taint', () => {
  it('is chosen on management clusters of Kubernetes 1.28 and later, as CAPM3 does', () => {
    expect(nodeRemovalFor({ major: '1', minor: '35' })).toBe('out-of-service-taint');
    expect(nodeRemovalFor({ major: '1', minor: '28+' })).toBe('out-of-service-taint');
    expect(nodeRemovalFor({ major: '2', minor: '0' })).toBe('out-of-service-taint');
    expect(nodeRemovalFor({ major: '1', minor: '27' })).toBe('delete');
    expect(() => nodeRemovalFor({ major: '', minor: 'x' })).toThrow('cannot read the API server\'s version {"major":"","minor":"x"}');
  });

  it('is added once with its time, found by key and effect, and removed leaving the other taints', () => {
    const other = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
    const tainted = withOutOfServiceTaint([other], '2026-12-05T23:00:00Z');
    expect(tainted).toEqual([other, { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute', timeAdded: '2026-12-05T23:00:00Z' }]);
    expect(hasOutOfServiceTaint(tainted)).toBe(true);
    expect(hasOutOfServiceTaint([other, { key: 'node.kubernetes.io/out-of-service', effect: 'NoSchedule' }])).toBe(false);
    expect(hasOutOfServiceTaint(undefined)).toBe(false);
    expect(withoutOutOfServiceTaint(tainted)).toEqual([other]);
  });
});
