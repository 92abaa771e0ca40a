import { describe, expect, it } from '@jest/globals';
import { messagesFor, testHost } from './test-host.ts';

describe('name rules', () => {
  it('accepts letters, digits, dots, hyphens and underscores', () => {
    expect(messagesFor(testHost({ name: 'Node_0.rack-1' }))).toEqual([]);
  });

  it('refuses other characters and UUIDs', () => {
    expect(messagesFor(testHost({ name: 'node:0' }))).toEqual(['BareMetalHost resource name cannot contain characters other than [A-Za-z0-9._-]']);
    expect(messagesFor(testHost({ name: '0f8fad5b-d9cb-469f-a165-70867728950e' }))).toEqual(['BareMetalHost resource name cannot be a UUID']);
    expect(messagesFor(testHost({ name: '0f8fad5bd9cb469fa16570867728950e' }))).toEqual(['BareMetalHost resource name cannot be a UUID']);
  });
});
