import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { propertyRuns } from '../../../test/support/fault-scale.ts';
import { DETACHED_ANNOTATION, REBOOT_ANNOTATION_PREFIX } from '../../api/annotations.ts';
import { bareMetalHostSchema } from '../../api/baremetalhost.ts';
import { detachedArguments, parseHardwareDetails, parseStatusAnnotation, rebootRequest } from './annotations.ts';

// The JSON values users put in annotations the controller reads (status, hardware details,
// reboot, detached): any text, any JSON, JSON shaped almost like the real thing, and nesting
// deep enough to break a recursive walker. Each reader answers ok or a message; none throws.
const nearMisses = fc.oneof(
  fc.record({ mode: fc.oneof(fc.constantFrom('hard', 'soft', 'HARD', ''), fc.jsonValue()), force: fc.oneof(fc.boolean(), fc.jsonValue()) }, { requiredKeys: [] }),
  fc.record({ deleteAction: fc.oneof(fc.constantFrom('delay', 'delete'), fc.jsonValue()), force: fc.jsonValue() }, { requiredKeys: [] }),
  fc.record({ operationalStatus: fc.oneof(fc.constantFrom('OK', 'discovered', 'error'), fc.jsonValue()), errorType: fc.jsonValue(),
    provisioning: fc.record({ state: fc.oneof(fc.constantFrom('available', 'provisioned'), fc.jsonValue()), ID: fc.jsonValue() }, { requiredKeys: [] }),
    hardware: fc.jsonValue(), lastUpdated: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.jsonValue()) }, { requiredKeys: [] }),
  fc.record({ cpu: fc.record({ arch: fc.jsonValue(), count: fc.jsonValue() }, { requiredKeys: [] }), ramMebibytes: fc.jsonValue(),
    nics: fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 3 }), storage: fc.jsonValue(), hostname: fc.jsonValue() }, { requiredKeys: [] }),
).map((value) => JSON.stringify(value));
const deepNesting = fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('[', '{"hardware":', '{"cpu":{"arch":', '{"a":')).map(([depth, open]) => {
  const close = open === '[' ? ']' : '}'.repeat(open.split('{').length - 1);
  return `${open.repeat(depth)}1${close.repeat(depth)}`;
});
const values = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.json(), nearMisses, deepNesting);

function hostWith(annotations: Record<string, string>) {
  return bareMetalHostSchema.parse({
    metadata: { name: 'h', namespace: 'n', annotations },
    spec: { online: true, bmc: { address: 'redfish://127.0.0.1/redfish/v1/Systems/1', credentialsName: 'b' } },
  });
}

function expectAnswer(result: { ok: true } | { ok: false; message: string }): void {
  if (!result.ok) expect(result.message).not.toBe('');
}

describe('annotation values, hostile', () => {
  it('the status annotation restores a status or says why not', () => {
    fc.assert(fc.property(values, (value) => expectAnswer(parseStatusAnnotation(value))), { numRuns: propertyRuns() });
  });

  it('the hardware details annotation gives details or says why not', () => {
    fc.assert(fc.property(values, (value) => expectAnswer(parseHardwareDetails(value))), { numRuns: propertyRuns() });
  });

  it('reboot and detached annotations are read or reported, whatever their keys and values', () => {
    const keys = fc.oneof(fc.constant(REBOOT_ANNOTATION_PREFIX), fc.string({ unit: 'grapheme', maxLength: 30 }).map((owner) => `${REBOOT_ANNOTATION_PREFIX}/${owner}`));
    fc.assert(fc.property(fc.dictionary(keys, values, { maxKeys: 4 }), values, fc.boolean(), (reboots, detached, forcedOnly) => {
      const host = hostWith({ ...reboots, [DETACHED_ANNOTATION]: detached });
      const request = rebootRequest(host, { forcedOnly });
      expect(['soft', 'hard']).toContain(request.mode);
      // A value that is no valid JSON object is reported, never silently dropped.
      expect(request.invalidValues.every((invalid) => Object.values(reboots).includes(invalid))).toBe(true);
      const args = detachedArguments(host);
      expect(args).toBeDefined();
      if (args) expectAnswer(args);
    }), { numRuns: propertyRuns() });
  });
});
