import { describe, it, expect } from '@jest/globals';
import type { KubeObject, ObjectMeta } from './kube-object.ts';
import {
  allows,
  and,
  annotationChanged,
  deletionRequested,
  finalizerChanged,
  generationChanged,
  labelChanged,
  not,
  or,
  resourceVersionChanged,
} from './predicates.ts';
import type { Predicate } from './predicates.ts';

const obj = (metadata: Partial<ObjectMeta>): KubeObject => ({ metadata: { name: 'h', namespace: 'ns', ...metadata } });
const update = (p: Predicate, a: Partial<ObjectMeta>, b: Partial<ObjectMeta>) =>
  allows(p, { type: 'update', oldObject: obj(a), object: obj(b) });

describe('predicates', () => {
  it('generationChanged passes spec changes only', () => {
    expect(update(generationChanged, { generation: 1, resourceVersion: '1' }, { generation: 1, resourceVersion: '2' })).toBe(false);
    expect(update(generationChanged, { generation: 1 }, { generation: 2 })).toBe(true);
    expect(allows(generationChanged, { type: 'create', object: obj({}) })).toBe(true);
    expect(allows(generationChanged, { type: 'delete', object: obj({}), finalStateUnknown: false })).toBe(true);
  });

  it('annotationChanged and labelChanged compare maps, ignoring key order', () => {
    expect(update(annotationChanged, { annotations: { a: '1', b: '2' } }, { annotations: { b: '2', a: '1' } })).toBe(false);
    expect(update(annotationChanged, { annotations: { a: '1' } }, { annotations: { a: '2' } })).toBe(true);
    expect(update(annotationChanged, {}, { annotations: {} })).toBe(false);
    expect(update(labelChanged, { labels: { a: '1' } }, {})).toBe(true);
    expect(update(labelChanged, { labels: { a: '1' } }, { labels: { a: '1' } })).toBe(false);
  });

  it('finalizerChanged treats finalizers as a set', () => {
    expect(update(finalizerChanged, { finalizers: ['a', 'b'] }, { finalizers: ['b', 'a'] })).toBe(false);
    expect(update(finalizerChanged, { finalizers: ['a'] }, { finalizers: ['a', 'b'] })).toBe(true);
    expect(update(finalizerChanged, { finalizers: ['a'] }, {})).toBe(true);
  });

  it('resourceVersionChanged and deletionRequested', () => {
    expect(update(resourceVersionChanged, { resourceVersion: '1' }, { resourceVersion: '1' })).toBe(false);
    expect(update(resourceVersionChanged, { resourceVersion: '1' }, { resourceVersion: '2' })).toBe(true);
    expect(update(deletionRequested, {}, { deletionTimestamp: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(update(deletionRequested, { deletionTimestamp: 'x' }, { deletionTimestamp: 'x' })).toBe(false);
  });

  it('combines with and / or / not', () => {
    const specOrLabels = or(generationChanged, labelChanged);
    expect(update(specOrLabels, { generation: 1 }, { generation: 1, labels: { a: 'b' } })).toBe(true);
    expect(update(specOrLabels, { generation: 1 }, { generation: 1 })).toBe(false);
    const both = and(generationChanged, labelChanged);
    expect(update(both, { generation: 1 }, { generation: 2 })).toBe(false);
    expect(update(both, { generation: 1 }, { generation: 2, labels: { a: 'b' } })).toBe(true);
    expect(update(not(generationChanged), { generation: 1 }, { generation: 2 })).toBe(false);
    expect(allows(not(generationChanged), { type: 'create', object: obj({}) })).toBe(false);
  });
});
