import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { propertyRuns } from '../../test/support/fault-scale.ts';
import { compileLabelSelector, LabelSelectorError } from '../../operator/runtime/index.ts';
import { machineSpecProblems } from '../controllers/metal3machine/validate.ts';
import { metal3MachineSchema } from './metal3machine.ts';

// Hostile Metal3Machines: any JSON, and machines whose spec fields hold odd values. The schema
// parses or lists issues, the spec check (CAPM3's webhook rules, reported as a condition) names
// problems, and a host selector compiles or throws LabelSelectorError: nothing else escapes.
const oddText = fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.constantFrom('', 'toString', '__proto__', 'constructor', 'Ω', '🖥️', 'In', 'GT', '-1', '1e3'));
const operators = fc.oneof(fc.constantFrom('In', 'NotIn', 'Exists', '!', '=', '==', '!=', 'Gt', 'Lt', 'in', 'gt'), oddText);
const selector = fc.record({
  matchLabels: fc.dictionary(oddText, oddText, { maxKeys: 3 }),
  matchExpressions: fc.array(fc.record({ key: oddText, operator: operators, values: fc.array(oddText, { maxLength: 3 }) }, { requiredKeys: ['key', 'operator'] }), { minLength: 1, maxLength: 3 }),
}, { requiredKeys: [] });
const spec = fc.record({
  image: fc.record({ url: oddText, checksum: oddText, checksumType: oddText, diskFormat: fc.oneof(fc.constantFrom('raw', 'qcow2', 'live-iso'), oddText) }, { requiredKeys: ['url'] }),
  customDeploy: fc.record({ method: oddText }),
  userData: fc.record({ name: oddText, namespace: oddText }, { requiredKeys: [] }),
  metaData: fc.record({ name: oddText, namespace: oddText }, { requiredKeys: [] }),
  hostSelector: selector,
  automatedCleaningMode: fc.oneof(fc.constantFrom('metadata', 'disabled'), oddText),
  providerID: oddText,
}, { requiredKeys: [] });
const machines = fc.oneof(
  fc.record({ metadata: fc.record({ name: oddText, namespace: oddText }), spec }),
  fc.record({ metadata: fc.jsonValue(), spec: fc.jsonValue(), status: fc.jsonValue() }, { requiredKeys: [] }),
  fc.anything(),
);
const labels = fc.dictionary(oddText, oddText, { maxKeys: 4 });

describe('Metal3Machine, hostile', () => {
  it('parses or lists issues; a parsed machine gets its spec problems named; its selector compiles or says why', () => {
    let parsedCount = 0;
    fc.assert(fc.property(machines, labels, (machine, hostLabels) => {
      const parsed = metal3MachineSchema.safeParse(machine);
      if (!parsed.success) {
        expect(parsed.error.issues.length).toBeGreaterThan(0);
        return;
      }
      parsedCount++;
      expect(machineSpecProblems(parsed.data).every((problem) => problem.length > 0)).toBe(true);
      let compiled;
      try {
        compiled = compileLabelSelector(parsed.data.spec.hostSelector);
      } catch (error) {
        expect(error).toBeInstanceOf(LabelSelectorError);
        return;
      }
      expect(typeof compiled.matches(hostLabels)).toBe('boolean');
    }), { numRuns: propertyRuns() });
    expect(parsedCount).toBeGreaterThan(0);
  });

  it('a selector on labels the host lacks never matches through inherited object keys', () => {
    // `key in labels` would find toString or __proto__ on every plain object.
    fc.assert(fc.property(fc.constantFrom('toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'), (key) => {
      expect(compileLabelSelector({ matchExpressions: [{ key, operator: 'Exists' }] }).matches({})).toBe(false);
      expect(compileLabelSelector({ matchExpressions: [{ key, operator: 'In', values: ['x'] }] }).matches({})).toBe(false);
      expect(compileLabelSelector({ matchExpressions: [{ key, operator: '!' }] }).matches({})).toBe(true);
    }), { numRuns: 20 });
  });
});
