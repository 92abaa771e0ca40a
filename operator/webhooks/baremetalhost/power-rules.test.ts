import { describe, expect, it } from '@jest/globals';
import { messagesFor, testHost } from './test-host.ts';

describe('power rules', () => {
  it('refuses disablePowerOff with online false only', () => {
    expect(messagesFor(testHost({ spec: { disablePowerOff: true, online: true } }))).toEqual([]);
    expect(messagesFor(testHost({ spec: { disablePowerOff: false, online: false } }))).toEqual([]);
    expect(messagesFor(testHost({ spec: { disablePowerOff: true, online: false } })))
      .toEqual(["node can't simultaneously have online set to false and have power off disabled"]);
  });

  it('refuses the deprecated firmware field', () => {
    expect(messagesFor(testHost({ spec: { firmware: { sriovEnabled: true } } })))
      .toEqual(['the Firmware field is no longer supported, use HostFirmwareSettings resource instead']);
  });
});
