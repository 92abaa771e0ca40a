import { describe, expect, it } from '@jest/globals';
import type { Metal3Data } from '../api/index.ts';
import { dataName, indexesOf, lowestFreeIndex } from './indexes.ts';

const data = (name: string, spec: Metal3Data['spec']): Metal3Data => ({ metadata: { name }, spec });

describe('lowestFreeIndex', () => {
  it('starts at 0 and gives the next index when all below are taken', () => {
    expect(lowestFreeIndex([])).toBe(0);
    expect(lowestFreeIndex([0, 1, 2])).toBe(3);
  });

  it('reuses the lowest freed index first', () => {
    expect(lowestFreeIndex([0, 2, 3])).toBe(1);
    expect(lowestFreeIndex([3, 1, 2])).toBe(0);
  });
});

describe('indexesOf', () => {
  it('lists the claims of this template only, sorted by index', () => {
    const datas = [
      data('t-2', { index: 2, claim: { name: 'm-c' }, template: { name: 't' } }),
      data('t-0', { index: 0, claim: { name: 'm-a' }, template: { name: 't' } }),
      data('other-1', { index: 1, claim: { name: 'm-x' }, template: { name: 'other' } }),
      data('t-x', { template: { name: 't' } }),
    ];
    expect(indexesOf(datas, 't')).toEqual([{ name: 'm-a', index: 0 }, { name: 'm-c', index: 2 }]);
    expect(lowestFreeIndex(indexesOf(datas, 't').map((entry) => entry.index))).toBe(1);
  });

  it('names data after the template and index', () => {
    expect(dataName('workers', 4)).toBe('workers-4');
  });
});
