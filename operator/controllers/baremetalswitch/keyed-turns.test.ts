import { describe, expect, it } from '@jest/globals';
import { KeyedTurns } from './keyed-turns.ts';

function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => { open = resolve; });
  return { promise, open };
}

describe('KeyedTurns', () => {
  it('runs work for one key one at a time, in order, even after a failure', async () => {
    const turns = new KeyedTurns();
    const order: string[] = [];
    const first = gate();
    const a = turns.run('ns', async () => { order.push('a start'); await first.promise; order.push('a end'); throw new Error('a failed'); });
    const b = turns.run('ns', async () => { order.push('b'); return 'b done'; });
    await Promise.resolve();
    expect(order).toEqual(['a start']);
    first.open();
    await expect(a).rejects.toThrow('a failed');
    await expect(b).resolves.toBe('b done');
    expect(order).toEqual(['a start', 'a end', 'b']);
  });

  it('lets other keys run alongside and forgets a key once its work is done', async () => {
    const turns = new KeyedTurns();
    const held = gate();
    const slow = turns.run('one', () => held.promise);
    await expect(turns.run('two', async () => 'two done')).resolves.toBe('two done');
    expect(turns.size).toBe(1);
    held.open();
    await slow;
    expect(turns.size).toBe(0);
  });
});
