import { describe, expect, it } from '@jest/globals';
import { SentCredentials } from './sent-credentials.ts';

const access = { redfish_address: 'http://bmc.test:8000', redfish_username: 'admin', redfish_password: 'secret-pw' };

describe('SentCredentials', () => {
  it('holds what a node was last given, whatever the order of its keys', () => {
    const sent = new SentCredentials();
    sent.record('node-1', access);
    expect(sent.holds('node-1', { redfish_password: 'secret-pw', redfish_username: 'admin', redfish_address: 'http://bmc.test:8000' })).toBe(true);
  });

  it('does not hold another password, another address or another node\'s access', () => {
    const sent = new SentCredentials();
    sent.record('node-1', access);
    expect(sent.holds('node-1', { ...access, redfish_password: 'rotated' })).toBe(false);
    expect(sent.holds('node-1', { ...access, redfish_address: 'http://bmc.test:8001' })).toBe(false);
    expect(sent.holds('node-2', access)).toBe(false);
  });

  it('keeps only the latest access of a node, and none once forgotten', () => {
    const sent = new SentCredentials();
    sent.record('node-1', access);
    sent.record('node-1', { ...access, redfish_password: 'rotated' });
    expect(sent.holds('node-1', access)).toBe(false);
    expect(sent.size).toBe(1);
    sent.forget('node-1');
    expect(sent.holds('node-1', { ...access, redfish_password: 'rotated' })).toBe(false);
    expect(sent.size).toBe(0);
  });
});
