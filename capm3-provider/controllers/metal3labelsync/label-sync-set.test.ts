import { describe, expect, it } from '@jest/globals';
import { labelsUnderPrefixes, nodeLabelPatch, parsePrefixes } from './label-sync-set.ts';

describe('label sync sets', () => {
  it('parses the prefixes, skipping empty entries, and names a malformed one', () => {
    expect(parsePrefixes(' rack.example.com, ,topology.example.com,')).toEqual({ ok: true, prefixes: new Set(['rack.example.com', 'topology.example.com']) });
    expect(parsePrefixes('good.example.com,Bad_Prefix')).toEqual({ ok: false, error: expect.stringContaining('invalid prefix "Bad_Prefix": a label prefix must be a DNS-1123 subdomain') });
    expect(parsePrefixes(`${'a'.repeat(254)}`).ok).toBe(false);
  });

  it('covers only keys whose prefix is in the set', () => {
    const prefixes = new Set(['rack.example.com']);
    expect(labelsUnderPrefixes({ 'rack.example.com/row': '3', 'other.example.com/row': '4', plain: 'x', 'rack.example.com/': 'y' }, prefixes))
      .toEqual({ 'rack.example.com/row': '3' });
  });

  it('sets what the host has, removes what it does not, and leaves labels outside the prefixes alone', () => {
    const prefixes = new Set(['rack.example.com', 'zone.example.com']);
    expect(nodeLabelPatch({
      prefixes,
      hostLabels: { 'rack.example.com/row': '3', 'rack.example.com/slot': '7', 'zone.example.com/name': 'a', role: 'worker' },
      nodeLabels: { 'rack.example.com/row': '2', 'rack.example.com/old': 'x', 'zone.example.com/name': 'a', 'kubernetes.io/hostname': 'n1' },
    })).toEqual({ 'rack.example.com/old': null, 'rack.example.com/row': '3', 'rack.example.com/slot': '7' });
    expect(nodeLabelPatch({ prefixes, hostLabels: { 'zone.example.com/name': 'a' }, nodeLabels: { 'zone.example.com/name': 'a' } })).toEqual({});
  });
});
