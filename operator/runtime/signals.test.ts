import { describe, it, expect } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { setupSignalHandler } from './signals.ts';

class FakeProcess extends EventEmitter {
  exits: number[] = [];
  exit(code: number): void {
    this.exits.push(code);
  }
}

describe('setupSignalHandler', () => {
  it('aborts on the first signal and exits on the second', () => {
    const proc = new FakeProcess();
    const handler = setupSignalHandler({ process: proc });
    expect(handler.signal.aborted).toBe(false);
    proc.emit('SIGTERM');
    expect(handler.signal.aborted).toBe(true);
    expect(proc.exits).toEqual([]);
    proc.emit('SIGINT');
    expect(proc.exits).toEqual([1]);
  });

  it('stops listening once disposed', () => {
    const proc = new FakeProcess();
    const handler = setupSignalHandler({ process: proc });
    handler.dispose();
    expect(proc.listenerCount('SIGTERM')).toBe(0);
    expect(proc.listenerCount('SIGINT')).toBe(0);
  });
});
