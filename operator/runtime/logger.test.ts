import { describe, it, expect } from '@jest/globals';
import { Writable } from 'node:stream';
import { createLogger } from './logger.ts';

/** winston's Stream transport writes info objects; the formatted JSON line sits under Symbol.for('message'). */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    objectMode: true,
    write(info: Record<symbol, string>, _encoding, callback) {
      lines.push(JSON.parse(info[Symbol.for('message')] as string) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, stream };
}

describe('createLogger', () => {
  it('writes JSON lines that carry child logger fields', () => {
    const { lines, stream } = capture();
    const root = createLogger({ stream, defaultMeta: { component: 'test' } });
    root.child({ controller: 'toy' }).child({ reconcileID: 'r-1' }).info('reconciling', { generation: 3 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      message: 'reconciling',
      component: 'test',
      controller: 'toy',
      reconcileID: 'r-1',
      generation: 3,
    });
    expect(typeof lines[0]?.ts).toBe('string');
  });

  it('writes one readable line each in console format (BMO\'s --dev): time, level, message, then the fields', () => {
    const text: string[] = [];
    const stream = new Writable({
      objectMode: true,
      write(info: Record<symbol, string>, _encoding, callback) {
        text.push(info[Symbol.for('message')] as string);
        callback();
      },
    });
    const logger = createLogger({ stream, format: 'console', defaultMeta: { component: 'test' } });
    logger.warn('host is slow', { host: 'ns/h1' });
    logger.info('plain');
    expect(text[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\tWARN\thost is slow\t\{"component":"test","host":"ns\/h1"\}$/);
    expect(text[1]).toMatch(/\tINFO\tplain\t\{"component":"test"\}$/);
  });

  it('serialises errors nested in meta instead of logging {}', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ stream });
    logger.error('reconcile failed', { error: Object.assign(new Error('boom'), { code: 'ECONNRESET' }) });
    expect(lines[0]?.error).toMatchObject({ name: 'Error', message: 'boom', code: 'ECONNRESET' });
    expect(String((lines[0]?.error as { stack?: string }).stack)).toContain('boom');
  });

  it('respects the level', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ stream, level: 'warn' });
    logger.info('hidden');
    logger.debug('hidden');
    logger.warn('shown');
    expect(lines.map((l) => l.message)).toEqual(['shown']);
  });
});
