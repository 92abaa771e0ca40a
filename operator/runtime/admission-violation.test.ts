import { describe, expect, it } from '@jest/globals';
import { aggregateMessage } from './admission-violation.ts';

describe('aggregateMessage', () => {
  it('prints one message alone, several in brackets, repeats once', () => {
    expect(aggregateMessage([{ field: 'a', message: 'x' }, { field: 'b', message: 'x' }])).toBe('x');
    expect(aggregateMessage([{ field: 'a', message: 'x' }, { field: 'b', message: 'y' }])).toBe('[x, y]');
  });
});
