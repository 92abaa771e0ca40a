import { describe, expect, it } from '@jest/globals';
import { messagesFor, testHost } from './test-host.ts';

const annotated = (annotations: Record<string, string>, spec = {}) => testHost({ annotations, spec: { bootMACAddress: '00:11:22:33:44:55', ...spec } });

describe('annotation rules', () => {
  it('accepts the values BMO acts on', () => {
    expect(messagesFor(annotated({
      'baremetalhost.metal3.io/status': '{"operationalStatus":"OK","provisioning":{"state":"provisioned"},"poweredOn":true}',
      'reboot.metal3.io': '', 'reboot.metal3.io/owner': '{"mode":"hard","force":true}', 'inspect.metal3.io': 'disabled',
      'inspect.metal3.io/hardwaredetails': '{"cpu":{"arch":"x86_64","count":2},"ramMebibytes":4096}',
      'baremetalhost.metal3.io/detached': '{"deleteAction":"delay"}', 'baremetalhost.metal3.io/paused': 'anything',
    }))).toEqual([]);
  });

  it('refuses a status annotation with unknown fields or values', () => {
    expect(messagesFor(annotated({ 'baremetalhost.metal3.io/status': '{"operationalStatus":"fine"}' })))
      .toEqual(["invalid operationalStatus 'fine' in the baremetalhost.metal3.io/status annotation"]);
    expect(messagesFor(annotated({ 'baremetalhost.metal3.io/status': '{"errorType":"bad luck"}' })))
      .toEqual(["invalid errorType 'bad luck' in the baremetalhost.metal3.io/status annotation"]);
    expect(messagesFor(annotated({ 'baremetalhost.metal3.io/status': '{"colour":"red"}' })))
      .toEqual(['error decoding status annotation: json: unknown field "colour"']);
    expect(messagesFor(annotated({ 'baremetalhost.metal3.io/status': '{' }))[0]).toMatch(/^error decoding status annotation: /);
  });

  it('reads the status annotation as BMO\'s Go decoder does: null, a key in another case, an empty errorType', () => {
    for (const value of ['null', '{"OperationalStatus":"OK"}', '{"operationalStatus":"error","errorType":"","poweredOn":null}']) {
      expect(messagesFor(annotated({ 'baremetalhost.metal3.io/status': value }))).toEqual([]);
    }
    expect(messagesFor(annotated({ 'baremetalhost.metal3.io/status': '{"OperationalStatus":"NotOK"}' })))
      .toEqual(["invalid operationalStatus 'NotOK' in the baremetalhost.metal3.io/status annotation"]);
  });

  it('refuses a reboot mode other than hard or soft, and non-JSON', () => {
    expect(messagesFor(annotated({ 'reboot.metal3.io/x': '{"mode":"gentle"}' })))
      .toEqual(['invalid mode in the reboot.metal3.io annotation, allowed are "hard", "soft" or ""']);
    expect(messagesFor(annotated({ 'reboot.metal3.io': 'now' }))[0]).toMatch(/^failed to unmarshal the data from the reboot.metal3.io annotation: /);
  });

  it('reads reboot arguments as BMO\'s json.Unmarshal does: null is no arguments, a key matches its field in any case', () => {
    for (const value of ['null', '{"mode":null}', '{"Mode":"hard"}', '{"FORCE":true}']) expect(messagesFor(annotated({ 'reboot.metal3.io/x': value }))).toEqual([]);
    expect(messagesFor(annotated({ 'reboot.metal3.io/x': '{"Mode":"bogus"}' })))
      .toEqual(['invalid mode in the reboot.metal3.io annotation, allowed are "hard", "soft" or ""']);
  });

  it('refuses inspect values other than "" and disabled', () => {
    expect(messagesFor(annotated({ 'inspect.metal3.io': 'yes' })))
      .toEqual(['invalid value for the inspect.metal3.io annotation, allowed are "disabled" or ""']);
  });

  it('refuses hardware details while inspection is enabled, or with unknown fields', () => {
    expect(messagesFor(annotated({ 'inspect.metal3.io/hardwaredetails': '{"ramMebibytes":1}' }))).toEqual([
      'when hardware details are provided, inspection must be disabled (either via inspect.metal3.io annotation or inspectionMode field)',
    ]);
    expect(messagesFor(annotated({ 'inspect.metal3.io/hardwaredetails': '{"ram":1}' }, { inspectionMode: 'disabled' })))
      .toEqual(['error decoding the inspect.metal3.io/hardwaredetails annotation: json: unknown field "ram"']);
  });

  it('takes any detached annotation value, as BMO does (owner names, "true", arguments it cannot read)', () => {
    for (const value of ['assisted-service-controller', 'imageclusterinstall-controller', 'true', '{"deleteAction":"later"}', '']) {
      expect(messagesFor(annotated({ 'baremetalhost.metal3.io/detached': value }))).toEqual([]);
    }
  });
});
