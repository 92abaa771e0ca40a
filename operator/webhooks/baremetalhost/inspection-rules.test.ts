import { describe, expect, it } from '@jest/globals';
import { messagesFor, testHost } from './test-host.ts';

describe('inspectionMode rules', () => {
  it('refuses a mode that contradicts the inspect annotation', () => {
    expect(messagesFor(testHost({ annotations: { 'inspect.metal3.io': 'disabled' }, spec: { inspectionMode: 'agent', bootMACAddress: '00:11:22:33:44:55' } })))
      .toEqual(['inspect.metal3.io annotation and inspectionMode field have contradicting values']);
    expect(messagesFor(testHost({ annotations: { 'inspect.metal3.io': 'disabled' }, spec: { inspectionMode: 'disabled', bootMACAddress: '00:11:22:33:44:55' } })))
      .toEqual([]);
  });

  it('refuses fast inspection where the BMC has no out-of-band inspection', () => {
    expect(messagesFor(testHost({ spec: { inspectionMode: 'fast' } }))).toEqual([]);
    expect(messagesFor(testHost({ spec: { inspectionMode: 'fast', bmc: { address: 'ipmi://127.0.0.1', credentialsName: 'b' } } })))
      .toEqual(['BMC driver ipmi does not support fast (out-of-band) inspection']);
  });
});
