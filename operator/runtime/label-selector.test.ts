import { describe, expect, it } from '@jest/globals';
import { LabelSelectorError, compileLabelSelector } from './label-selector.ts';

const CPU = 'hardware.metal3.io/cpu-count';
const labels = { role: 'worker', zone: 'a', [CPU]: '16', odd: 'many' };

describe('compileLabelSelector', () => {
  it('matches every host, labelled or not, when empty or missing', () => {
    for (const selector of [undefined, {}, { matchLabels: {} }]) {
      const compiled = compileLabelSelector(selector);
      expect(compiled.matches(labels)).toBe(true);
      expect(compiled.matches(undefined)).toBe(true);
      expect(compiled.description).toBe('(any host)');
    }
  });

  it('requires every matchLabels entry with its exact value', () => {
    const compiled = compileLabelSelector({ matchLabels: { role: 'worker', zone: 'a' } });
    expect(compiled.matches(labels)).toBe(true);
    expect(compiled.matches({ ...labels, zone: 'b' })).toBe(false);
    expect(compiled.matches({ role: 'worker' })).toBe(false);
    expect(compiled.description).toBe('role=worker, zone=a');
  });

  it.each([
    // operator, values, labels, matches
    ['in', ['a', 'b'], { zone: 'a' }, true],
    ['in', ['b'], { zone: 'a' }, false],
    ['in', ['a'], {}, false],
    ['In', ['a'], { zone: 'a' }, true],
    ['notin', ['b'], { zone: 'a' }, true],
    ['notin', ['a'], { zone: 'a' }, false],
    ['notin', ['a'], {}, true],
    ['NotIn', ['a', 'c'], { zone: 'c' }, false],
    ['NOTIN', ['a'], { zone: 'b' }, true],
    ['exists', [], { zone: '' }, true],
    ['exists', [], {}, false],
    ['Exists', [], { zone: 'x' }, true],
    ['!', [], {}, true],
    ['!', [], { zone: 'a' }, false],
    ['=', ['a'], { zone: 'a' }, true],
    ['=', ['a'], { zone: 'b' }, false],
    ['=', ['a'], {}, false],
    ['==', ['a'], { zone: 'a' }, true],
    ['==', ['a'], { zone: 'A' }, false],
    ['!=', ['a'], { zone: 'b' }, true],
    ['!=', ['a'], {}, true],
    ['!=', ['a'], { zone: 'a' }, false],
  ] as const)('zone %s %j on %j → %s', (operator, values, hostLabels, expected) => {
    const compiled = compileLabelSelector({ matchExpressions: [{ key: 'zone', operator, values: [...values] }] });
    expect(compiled.matches(hostLabels)).toBe(expected);
  });

  it.each([
    ['gt', '8', '16', true],
    ['gt', '16', '16', false],
    ['Gt', '8', '9', true],
    ['GT', '-1', '0', true],
    ['lt', '8', '4', true],
    ['lt', '8', '8', false],
    ['Lt', '0', '-3', true],
    ['gt', '8', undefined, false],
    ['lt', '8', undefined, false],
    ['gt', '8', 'lots', false],
    ['lt', '8', 'lots', false],
    ['gt', '8', '16.5', false],
    ['lt', '100', '1e1', false],
  ] as const)('cpu-count %s %s on label %s → %s', (operator, bound, label, expected) => {
    const compiled = compileLabelSelector({ matchExpressions: [{ key: CPU, operator, values: [bound] }] });
    expect(compiled.matches(label === undefined ? {} : { [CPU]: label })).toBe(expected);
  });

  it('requires matchLabels and all expressions together, and describes them all', () => {
    const compiled = compileLabelSelector({
      matchLabels: { role: 'worker' },
      matchExpressions: [{ key: CPU, operator: 'Gt', values: ['8'] }, { key: 'zone', operator: 'In', values: ['a', 'b'] }, { key: 'broken', operator: '!' }],
    });
    expect(compiled.matches(labels)).toBe(true);
    expect(compiled.matches({ ...labels, [CPU]: '8' })).toBe(false);
    expect(compiled.matches({ ...labels, zone: 'c' })).toBe(false);
    expect(compiled.matches({ ...labels, broken: 'yes' })).toBe(false);
    expect(compiled.matches({ zone: 'a', [CPU]: '16' })).toBe(false);
    expect(compiled.description).toBe(`role=worker, ${CPU} Gt 8, zone In a,b, broken !`);
  });

  it.each([
    ['DoesNotExist', [], 'zone: unknown operator "DoesNotExist" (use in, notin, exists, !, =, ==, !=, gt or lt)'],
    ['like', ['a'], 'zone: unknown operator "like"'],
    ['in', [], 'zone in: needs at least one value'],
    ['NotIn', [], 'zone NotIn: needs at least one value'],
    ['=', [], 'zone =: = takes exactly one value, got 0'],
    ['==', ['a', 'b'], 'zone ==: == takes exactly one value, got 2'],
    ['!=', ['a', 'b'], 'zone !=: != takes exactly one value, got 2'],
    ['exists', ['a'], 'zone exists: takes no values'],
    ['!', ['a'], 'zone !: takes no values'],
    ['gt', [], 'zone gt: gt takes exactly one value, got 0'],
    ['Lt', ['1', '2'], 'zone Lt: lt takes exactly one value, got 2'],
    ['gt', ['eight'], 'zone gt: "eight" is not an integer'],
    ['lt', ['1.5'], 'zone lt: "1.5" is not an integer'],
  ] as const)('rejects zone %s %j with a readable LabelSelectorError', (operator, values, message) => {
    const compile = () => compileLabelSelector({ matchExpressions: [{ key: 'zone', operator, values: [...values] }] });
    expect(compile).toThrow(LabelSelectorError);
    expect(compile).toThrow(message);
  });

  it('treats missing values as none', () => {
    expect(compileLabelSelector({ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }).matches({ zone: 'a' })).toBe(true);
    expect(() => compileLabelSelector({ matchExpressions: [{ key: 'zone', operator: 'in' }] })).toThrow('needs at least one value');
  });
});
