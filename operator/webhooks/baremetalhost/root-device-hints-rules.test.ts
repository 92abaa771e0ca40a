import { describe, expect, it } from '@jest/globals';
import { messagesFor, testHost } from './test-host.ts';

const hint = (deviceName: string) => testHost({ spec: { rootDeviceHints: { deviceName } } });

describe('root device hint rules', () => {
  it('accepts /dev/ names and /dev/disk/by-path/ links', () => {
    expect(messagesFor(hint('/dev/sda'))).toEqual([]);
    expect(messagesFor(hint('/dev/disk/by-path/pci-0000:00:1f.2-ata-1'))).toEqual([]);
  });

  it('refuses other paths', () => {
    expect(messagesFor(hint('sda'))).toEqual(['device name of root device hint must be a /dev/ path, not "sda"']);
    expect(messagesFor(hint('/dev/disk/by-id/wwn-1'))).toEqual(['device name of root device hint must be path in /dev/ or /dev/disk/by-path/, not "/dev/disk/by-id/wwn-1"']);
  });
});
