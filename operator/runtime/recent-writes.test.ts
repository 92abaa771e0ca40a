import { describe, expect, it } from '@jest/globals';
import type { InformerHandler } from './informer.ts';
import type { KubeObject } from './kube-object.ts';
import { RecentWrites } from './recent-writes.ts';

const at = (resourceVersion: string): KubeObject => ({ metadata: { name: 'h', namespace: 'n', resourceVersion } });

describe('read-your-writes', () => {
  it('serves our write while the cache still shows any version we replaced', () => {
    const recent = new RecentWrites<KubeObject>();
    recent.remember('n/h', '1', at('2'));
    recent.remember('n/h', '2', at('3'));
    expect(recent.freshest('n/h', at('1'))?.metadata.resourceVersion).toBe('3');
    expect(recent.freshest('n/h', at('2'))?.metadata.resourceVersion).toBe('3');
  });

  it('takes the key and the replaced version from the object a write was made from', () => {
    const recent = new RecentWrites<KubeObject>();
    recent.rememberWrite(at('1'), at('2'));
    expect(recent.freshest('n/h', at('1'))?.metadata.resourceVersion).toBe('2');
  });

  it('trusts the cache once it moved on, and forgets', () => {
    const recent = new RecentWrites<KubeObject>();
    recent.remember('n/h', '1', at('2'));
    expect(recent.freshest('n/h', at('5'))?.metadata.resourceVersion).toBe('5');
    expect(recent.size).toBe(0);
  });

  it('forgets objects that are gone', () => {
    const recent = new RecentWrites<KubeObject>();
    recent.remember('n/h', '1', at('2'));
    expect(recent.freshest('n/h', undefined)).toBeUndefined();
    expect(recent.size).toBe(0);
  });

  it('with its cache, drops an entry when the cache moves past it or the object is deleted, read or not', () => {
    const handlers: InformerHandler<KubeObject>[] = [];
    const recent = new RecentWrites<KubeObject>({ cache: { addHandler: (handler) => (handlers.push(handler), () => {}) } });
    recent.remember('n/h', '1', at('2'));
    handlers[0]!.onUpdate?.(at('0'), at('1'));
    expect(recent.size).toBe(1);
    handlers[0]!.onUpdate?.(at('1'), at('2'));
    expect(recent.size).toBe(0);
    recent.remember('n/h', '2', at('3'));
    handlers[0]!.onDelete?.(at('2'), { finalStateUnknown: false });
    expect(recent.size).toBe(0);
  });

  it('serves an object we created until the cache shows it, then what the cache shows', () => {
    const handlers: InformerHandler<KubeObject>[] = [];
    const recent = new RecentWrites<KubeObject>({ cache: { addHandler: (handler) => (handlers.push(handler), () => {}) } });
    recent.rememberCreated('n/h', at('1'));
    recent.remember('n/h', '1', at('2'));
    expect(recent.freshest('n/h', undefined)?.metadata.resourceVersion).toBe('2');
    expect(recent.freshest('n/h', at('1'))?.metadata.resourceVersion).toBe('2');
    handlers[0]!.onAdd?.(at('2'));
    expect(recent.size).toBe(0);
    expect(recent.freshest('n/h', undefined)).toBeUndefined();
  });

  it('keeps nothing when the cache already shows the write (the watch was faster than the response)', () => {
    const cached = new Map<string, KubeObject>([['n/h', at('2')]]);
    const recent = new RecentWrites<KubeObject>({ cache: { addHandler: () => () => {}, getByKey: (key) => cached.get(key) } });
    recent.remember('n/h', '1', at('2'));
    expect(recent.size).toBe(0);
    recent.rememberCreated('n/h', at('2'));
    expect(recent.size).toBe(0);
    cached.set('n/h', at('1'));
    recent.remember('n/h', '1', at('2'));
    expect(recent.size).toBe(1);
  });

  it('keeps the written copy without managedFields, as the informers cache objects', () => {
    const recent = new RecentWrites<KubeObject>();
    recent.remember('n/h', '1', { metadata: { ...at('2').metadata, managedFields: [{ manager: 'baremetal-operator' }] } });
    expect(recent.freshest('n/h', at('1'))).toEqual(at('2'));
  });
});
