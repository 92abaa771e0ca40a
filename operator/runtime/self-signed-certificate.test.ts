import { X509Certificate, createPrivateKey } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { selfSignedCertificate } from './self-signed-certificate.ts';

describe('selfSignedCertificate', () => {
  it('is an X.509 v3 serving certificate signed by its own key, for the names given, valid from a minute ago to a year from now', () => {
    const now = new Date('2026-12-06T12:00:00Z');
    const { cert, key } = selfSignedCertificate({ commonName: 'operator-metrics', names: ['localhost', '127.0.0.1', '::1', 'host-a'], now });
    const parsed = new X509Certificate(cert);
    expect(parsed.subject).toBe('CN=operator-metrics');
    expect(parsed.issuer).toBe('CN=operator-metrics');
    expect(parsed.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:host-a');
    expect(new Date(parsed.validFrom).toISOString()).toBe('2026-12-06T11:59:00.000Z');
    expect(new Date(parsed.validTo).toISOString()).toBe('2027-12-06T12:00:00.000Z');
    expect(parsed.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(parsed.ca).toBe(false);
    expect(parsed.verify(parsed.publicKey)).toBe(true);
    expect(parsed.checkPrivateKey(createPrivateKey(key))).toBe(true);
    expect(parsed.checkHost('localhost')).toBe('localhost');
    expect(parsed.checkIP('127.0.0.1')).toBe('127.0.0.1');
  });

  it('makes a new key and serial each time', () => {
    const [a, b] = [1, 2].map(() => new X509Certificate(selfSignedCertificate({ commonName: 'x', names: ['localhost'] }).cert));
    expect(a!.serialNumber).not.toBe(b!.serialNumber);
    expect(a!.fingerprint256).not.toBe(b!.fingerprint256);
  });
});
