import { describe, it, expect } from '@jest/globals';
import { parseYamlMap } from './yaml-map.ts';

describe('parseYamlMap', () => {
  it.each<[string, Record<string, unknown> | undefined]>([
    ['test: Meta', { test: 'Meta' }],
    ['{"links": [{"id": "eth0", "ethernet_mac_address": "52:54:00:12:34:56"}]}', { links: [{ id: 'eth0', ethernet_mac_address: '52:54:00:12:34:56' }] }],
    // go-yaml v2 semantics: YAML 1.1 booleans and octal, but no base-60 numbers or timestamps.
    ['mac: 52:54:00:12:34:56\nenabled: yes\noff_switch: off\nmode: 0755\nwhen: 2024-01-31\nt: 1:30', {
      mac: '52:54:00:12:34:56',
      enabled: true,
      off_switch: false,
      mode: 493,
      when: '2024-01-31',
      t: '1:30',
    }],
    ['1: one\ntrue: yes', { '1': 'one', true: true }],
    ['a: 1\na: 2', { a: 2 }],
    ['base: &b {x: 1}\nderived:\n  <<: *b\n  z: 2', { base: { x: 1 }, derived: { x: 1, z: 2 } }],
    // go-yaml v2 reads a bare `y` or `n` as a boolean, even as a key.
    ['y: 1\nn: 0', { true: 1, false: 0 }],
    ['first: 1\n---\nsecond: 2', { first: 1 }],
    ['', undefined],
    ['   \n', undefined],
    ['# only a comment', undefined],
    ['null', undefined],
    ['~', undefined],
  ])('%j', (text, expected) => {
    expect(parseYamlMap(text)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['- a\n- b', 'expected a map, found a list'],
    ['just a string', 'expected a map, found a string'],
    ['42', 'expected a map, found a number'],
    ['true', 'expected a map, found a boolean'],
    ['a: [1', 'invalid YAML (BAD_INDENT) at line 1, column 6'],
    ['password: hunter2\n  bad: indent', 'invalid YAML (BLOCK_AS_IMPLICIT_KEY) at line 1, column 11'],
  ])('rejects %j', (text, reason) => {
    const result = parseYamlMap(text);
    expect(result).toEqual({ ok: false, reason });
    expect(JSON.stringify(result)).not.toContain('hunter2');
  });

  it('gives plain JSON for exotic tags', () => {
    const result = parseYamlMap('s: !!set {a, b}\nbin: !!binary aGVsbG8=\nwhen: !!timestamp 2024-01-31');
    if (!result.ok) throw new Error(result.reason);
    expect(JSON.parse(JSON.stringify(result.value))).toEqual(result.value);
  });

  it('refuses alias bombs', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => {
      const prev = String.fromCharCode(97 + i);
      const next = String.fromCharCode(98 + i);
      return `${next}: &${next} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`;
    })].join('\n');
    expect(parseYamlMap(bomb)).toEqual({ ok: false, reason: 'invalid YAML (too many aliases)' });
  });
});
