import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { byFaultScale, propertyRuns } from '../../test/support/fault-scale.ts';
import { configDriveFromSecrets } from './config-drive-from-secrets.ts';
import { HostConfigError } from './host-config-error.ts';
import type { SecretData } from './read-host-config-value.ts';

// User data is passed on byte for byte however large or odd; network and meta data are a YAML
// map or a HostConfigError that names the Secret, never its content.
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const secret = (key: string, text: string): SecretData => ({ data: { [key]: b64(text) } });
const host = { uid: 'uid-1', namespace: 'ns', name: 'h', spec: { userData: { name: 'ud' }, networkData: { name: 'nd' }, metaData: { name: 'md' } } };
const MARKER = 'leak-marker-7f3a';

describe('config drive from hostile Secrets', () => {
  it('keeps huge user data whole', () => {
    const size = byFaultScale({ small: 4 * 1024 * 1024, large: 64 * 1024 * 1024 });
    const userData = `#cloud-config\n# ${'é✓'.repeat(size / 5)}\n`;
    const result = configDriveFromSecrets({ host, liveIso: false, secrets: { userData: secret('userData', userData), networkData: secret('value', ''), metaData: secret('value', '') } });
    if (!result.ok) throw result.error;
    expect(result.value?.user_data?.length).toBe(userData.length);
    expect(result.value?.user_data === userData).toBe(true);
  });

  it('passes any Unicode user data through and reads any network or meta data text as a map or a named error, quoting none of it', () => {
    // A process warning goes to the operator's log: it must not carry the Secret's text either.
    const warnings = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const texts = fc.oneof(fc.string({ unit: 'binary', maxLength: 400 }), fc.json(), fc.jsonValue().map((value) => JSON.stringify({ links: value })),
      fc.constantFrom('a: [', '- 1\n- 2', 'key: value', '&a [*a]', '!!binary x', '? ? ?', 'a: &x 1\nb: *x', '%YAML 9.9\n---'));
    fc.assert(fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 200 }), texts, texts, (userData, networkData, metaData) => {
      const result = configDriveFromSecrets({ host, liveIso: false, secrets: {
        userData: secret('userData', userData), networkData: secret('networkData', `${networkData}\n# ${MARKER}`), metaData: secret('metaData', metaData),
      } });
      if (result.ok) {
        expect(result.value?.user_data ?? '').toBe(userData);
        return;
      }
      expect(result.error).toBeInstanceOf(HostConfigError);
      expect(result.error.message).not.toContain(MARKER);
    }), { numRuns: propertyRuns() });
    const warned = warnings.mock.calls.map((call) => String(call[0]));
    warnings.mockRestore();
    expect(warned.filter((warning) => warning.includes(MARKER))).toEqual([]);
  });
});
