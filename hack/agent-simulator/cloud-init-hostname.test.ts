import { describe, expect, it } from '@jest/globals';
import { metaDataHostname, parseCloudConfig, userDataHostname } from './cloud-init-hostname.ts';

describe('userDataHostname', () => {
  it.each([
    ['hostname', '#cloud-config\nhostname: worker-1\n', 'worker-1'],
    ['fqdn alone gives its first label', '#cloud-config\nfqdn: worker-2.example.com\n', 'worker-2'],
    ['hostname wins over fqdn', '#cloud-config\nfqdn: a.example.com\nhostname: b\n', 'b'],
    ['a dotted hostname is split', '#cloud-config\nhostname: worker-3.example.com\n', 'worker-3'],
    ['prefer_fqdn_over_hostname', '#cloud-config\nfqdn: w4.example.com\nprefer_fqdn_over_hostname: true\n', 'w4.example.com'],
    ['CRLF header', '#cloud-config\r\nhostname: w5\r\n', 'w5'],
    ['other keys only', '#cloud-config\nusers: []\n', undefined],
    ['not cloud-config', '#!/bin/sh\nhostname: nope\n', undefined],
    ['ignition', '{"ignition": {"version": "3.2.0"}}', undefined],
    ['bad YAML', '#cloud-config\nhostname: [\n', undefined],
    ['a non-string hostname', '#cloud-config\nhostname: {a: 1}\n', undefined],
    ['none', undefined, undefined],
  ])('%s', (_case, userData, expected) => {
    expect(userDataHostname(userData)).toBe(expected);
  });

  it('keeps the rest of the cloud-config', () => {
    expect(parseCloudConfig('#cloud-config\nhostname: a\nruncmd: [ls]\n')).toEqual({ hostname: 'a', runcmd: ['ls'] });
  });
});

describe('metaDataHostname', () => {
  it('takes hostname over local-hostname, short form', () => {
    expect(metaDataHostname({ 'local-hostname': 'host-a', hostname: 'host-b.example.com' })).toBe('host-b');
    expect(metaDataHostname({ 'local-hostname': 'host-a', name: 'other' })).toBe('host-a');
    expect(metaDataHostname({ name: 'only-name' })).toBeUndefined();
    expect(metaDataHostname({ 'local-hostname': 7 })).toBeUndefined();
  });
});
