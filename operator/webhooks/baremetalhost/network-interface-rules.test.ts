import { describe, expect, it } from '@jest/globals';
import { messagesFor, testHost } from './test-host.ts';

describe('networkInterfaces rules', () => {
  it('accepts distinct selectors by name or MAC', () => {
    expect(messagesFor(testHost({ spec: { networkInterfaces: [{ name: 'eno1' }, { macAddress: '00:11:22:33:44:55' }] } }))).toEqual([]);
  });

  it('refuses entries with neither, both, or a repeated selector', () => {
    expect(messagesFor(testHost({ spec: { networkInterfaces: [{}, { name: 'eno1', macAddress: '00:11:22:33:44:55' }, { macAddress: 'AA:BB:CC:DD:EE:FF' }, { macAddress: 'aa:bb:cc:dd:ee:ff' }] } }))).toEqual([
      'networkInterfaces[0]: must specify either name or macAddress',
      'networkInterfaces[1]: name and macAddress are mutually exclusive',
      'networkInterfaces[3]: duplicate interface selector for "aa:bb:cc:dd:ee:ff"',
    ]);
  });
});
