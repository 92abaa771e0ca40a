import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { propertyRuns } from '../../test/support/fault-scale.ts';
import {
  DETACHED_ANNOTATION, HARDWARE_DETAILS_ANNOTATION, INSPECT_ANNOTATION, REBOOT_ANNOTATION_PREFIX, STATUS_ANNOTATION,
} from '../api/annotations.ts';
import { bareMetalHostSchema } from '../api/baremetalhost.ts';
import { silentLogger } from '../runtime/index.ts';
import { reviewBareMetalHost } from './baremetalhost-validator.ts';

// Whatever an AdmissionReview carries, the webhook answers it: allowed, or denied with a
// message. A throw would fail the API server's request with a 500 and no reason.
const deps = { options: { allowFakeHardware: false }, logger: silentLogger() };
const oddText = fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ unit: 'grapheme-composite', maxLength: 40 }),
  fc.constantFrom('', 'host-0', 'héllo', 'Ω-host', '🖥️', 'a'.repeat(300), '\u202eevil', 'x\u0000y', 'a..b', '-a', 'A_B'));
const jsonish = fc.oneof(fc.jsonValue(), oddText);
const annotationValues = fc.oneof(jsonish.map((value) => JSON.stringify(value)), oddText);
const annotations = fc.dictionary(
  fc.oneof(fc.constantFrom(STATUS_ANNOTATION, `${REBOOT_ANNOTATION_PREFIX}`, `${REBOOT_ANNOTATION_PREFIX}/capm3`, INSPECT_ANNOTATION, HARDWARE_DETAILS_ANNOTATION, DETACHED_ANNOTATION), oddText),
  annotationValues, { maxKeys: 4 },
);
const specFields = fc.dictionary(fc.constantFrom('online', 'bmc', 'bootMACAddress', 'image', 'userData', 'networkData', 'metaData', 'rootDeviceHints',
  'raid', 'firmware', 'customDeploy', 'bootMode', 'externallyProvisioned', 'disablePowerOff', 'consumerRef', 'taints', 'inspectionMode',
  'automatedCleaningMode', 'hardwareProfile', 'preprovisioningNetworkDataName', 'architecture', 'description'), fc.oneof(jsonish,
  fc.record({ address: oddText, credentialsName: oddText, disableCertificateVerification: fc.jsonValue() }, { requiredKeys: [] }),
  fc.record({ url: oddText, checksum: oddText, checksumType: oddText, format: oddText }, { requiredKeys: [] })), { maxKeys: 6 });
const validSpec = { online: true, bmc: { address: 'redfish://127.0.0.1/redfish/v1/Systems/1', credentialsName: 'b' } };
const nearlyValidHost = fc.record({ name: oddText, namespace: oddText, annotations, labels: fc.dictionary(oddText, oddText, { maxKeys: 2 }), spec: specFields })
  .map(({ name, namespace, annotations: values, labels, spec }) => ({
    apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace, annotations: values, labels }, spec: { ...validSpec, ...spec },
  }));
// Valid hosts with valid names and labels, so the allowed path is exercised as well.
const validHost = fc.record({ name: fc.domain().map((domain) => domain.toLowerCase().slice(0, 63).replace(/[.-]+$/, '') || 'h'), description: oddText })
  .map(({ name, description }) => ({ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace: 'n' }, spec: { ...validSpec, description } }));
const objects = fc.oneof(validHost, nearlyValidHost, fc.anything(), fc.jsonValue());

describe('BareMetalHost admission, hostile', () => {
  it('answers every CREATE and UPDATE with allowed or a denial that says why', () => {
    let allowed = 0;
    let denied = 0;
    fc.assert(fc.property(fc.constantFrom('CREATE', 'UPDATE'), objects, objects, (operation, object, oldObject) => {
      const { response } = reviewBareMetalHost({ uid: 'u', operation, object, oldObject }, deps);
      expect(response.uid).toBe('u');
      if (response.allowed) allowed++;
      else {
        denied++;
        expect(typeof response.status?.message).toBe('string');
        expect(response.status?.message).not.toBe('');
      }
    }), { numRuns: propertyRuns() });
    expect(allowed).toBeGreaterThan(0);
    expect(denied).toBeGreaterThan(0);
  });

  it('the BareMetalHost schema parses or lists issues, never throws', () => {
    fc.assert(fc.property(objects, (object) => {
      const parsed = bareMetalHostSchema.safeParse(object);
      if (!parsed.success) expect(parsed.error.issues.length).toBeGreaterThan(0);
    }), { numRuns: propertyRuns() });
  });
});
