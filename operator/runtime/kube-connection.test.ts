import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { JsonLineSplitter, authorizationFor, tlsOptionsFor } from './kube-connection.ts';

// That connections are really kept alive, and watches stay open, is proven against the API
// server in test/integration/runtime/connection-reuse.test.ts.
describe('tlsOptionsFor', () => {
  it('takes inline material first, reads files otherwise, and maps the cluster\'s TLS switches', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-connection-test-'));
    writeFileSync(join(dir, 'ca.crt'), 'CA FROM FILE');
    writeFileSync(join(dir, 'admin.key'), 'KEY FROM FILE');
    expect(tlsOptionsFor(
      { name: 'c', server: 'https://127.0.0.1:6443', caFile: join(dir, 'ca.crt'), skipTLSVerify: true, tlsServerName: 'kubernetes' },
      { name: 'u', certData: 'CERT', keyFile: join(dir, 'admin.key') },
    )).toEqual({ ca: 'CA FROM FILE', rejectUnauthorized: false, servername: 'kubernetes', cert: 'CERT', key: 'KEY FROM FILE' });
    expect(tlsOptionsFor({ name: 'c', server: 'https://x', caData: 'INLINE', caFile: '/nowhere' }, undefined)).toEqual({ ca: 'INLINE' });
  });
});

describe('authorizationFor', () => {
  const noFile = (): string => {
    throw new Error('no token file expected');
  };

  it('sends a token, a token file\'s current content, or basic credentials; nothing for a certificate user', () => {
    expect(authorizationFor({ name: 'u', token: 'abc' }, noFile)).toBe('Bearer abc');
    expect(authorizationFor({ name: 'u', tokenFile: '/sa/token' }, (path) => `${path}-rotated\n`)).toBe('Bearer /sa/token-rotated');
    expect(authorizationFor({ name: 'u', username: 'admin', password: 'pw' }, noFile)).toBe(`Basic ${Buffer.from('admin:pw').toString('base64')}`);
    expect(authorizationFor({ name: 'u', certData: 'CERT', keyData: 'KEY' }, noFile)).toBeUndefined();
    expect(authorizationFor(undefined, noFile)).toBeUndefined();
  });
});

describe('JsonLineSplitter', () => {
  it('parses events split anywhere across chunks, skips lines that are not JSON, and flushes a last line without newline', () => {
    const values: unknown[] = [];
    const splitter = new JsonLineSplitter();
    const push = (chunk: string) => splitter.push(chunk, (value) => values.push(value));
    push('{"type":"ADDED","obj');
    push('ect":{"n":1}}\n\nnot json\n{"type":"MOD');
    expect(values).toEqual([{ type: 'ADDED', object: { n: 1 } }]);
    push('IFIED"}');
    splitter.end((value) => values.push(value));
    expect(values).toEqual([{ type: 'ADDED', object: { n: 1 } }, { type: 'MODIFIED' }]);
  });

  it('keeps a long event whole across many chunks without a newline', () => {
    const owners = Array.from({ length: 5000 }, (_, index) => ({ name: `host-${index}` }));
    const line = `${JSON.stringify({ type: 'MODIFIED', object: { owners } })}\n`;
    const values: unknown[] = [];
    const splitter = new JsonLineSplitter();
    for (let at = 0; at < line.length; at += 1000) splitter.push(line.slice(at, at + 1000), (value) => values.push(value));
    expect(values).toEqual([{ type: 'MODIFIED', object: { owners } }]);
  });
});
