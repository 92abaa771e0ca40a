import { describe, it, expect } from '@jest/globals';
import { isSplittableHostPort, splitURLHost } from './go-host-port.ts';
import { parseGoURL } from './go-url.ts';

describe('parseGoURL', () => {
  it.each([
    ['ipmi://h:1/p?q=1#f', { scheme: 'ipmi', opaque: '', host: 'h:1', path: '/p', rawQuery: 'q=1' }],
    ['ipmi:h:1', { scheme: 'ipmi', opaque: 'h:1', host: '', path: '', rawQuery: '' }],
    ['h', { scheme: '', opaque: '', host: '', path: 'h', rawQuery: '' }],
    ['//h/x', { scheme: '', opaque: '', host: 'h', path: '/x', rawQuery: '' }],
    ['REDFISH://h', { scheme: 'redfish', opaque: '', host: 'h', path: '', rawQuery: '' }],
    ['x://[::1]:80', { scheme: 'x', opaque: '', host: '[::1]:80', path: '', rawQuery: '' }],
  ])('parses %s', (raw, url) => {
    expect(parseGoURL(raw)).toEqual({ ok: true, url });
  });

  it.each([
    ['1.2:1', 'parse "1.2:1": first path segment in URL cannot contain colon'],
    [':x', 'parse ":x": missing protocol scheme'],
    ['x://bad host', 'parse "x://bad host": invalid character " " in host name'],
    ['x://h/%zz', 'parse "x://h/%zz": invalid URL escape "%zz"'],
    ['x://h/#%z', 'parse "x://h/#%z": invalid URL escape "%z"'],
    ['x://h:p', 'parse "x://h:p": invalid port ":p" after host'],
    ['x://%41', 'parse "x://%41": invalid URL escape "%41"'],
    ['x://a b@h', 'parse "x://a b@h": net/url: invalid userinfo'],
    ['x://u:%zz@h', 'parse "x://u:%zz@h": invalid URL escape "%zz"'],
    ['x://h\t', 'parse "x://h\\t": net/url: invalid control character in URL'],
  ])('rejects %j', (raw, reason) => {
    expect(parseGoURL(raw)).toEqual({ ok: false, reason });
  });
});

describe('Go host/port helpers', () => {
  it.each([
    ['h:623', 'h', '623'],
    ['h:', 'h', ''],
    ['[::1]:623', '::1', '623'],
    ['[::1]', '::1', ''],
    ['h:abc', 'h:abc', ''],
  ])('splits %s', (hostPort, hostname, port) => {
    expect(splitURLHost(hostPort)).toEqual({ hostname, port });
  });

  it.each([
    ['h:1', true],
    ['[::1]:1', true],
    ['h', false],
    ['[::1]', false],
    ['a:b:c', false],
    ['[::1]x:1', false],
    ['h]:1', false],
    ['redfish://bmc', true],
  ])('net.SplitHostPort(%s) succeeds: %s', (hostPort, ok) => {
    expect(isSplittableHostPort(hostPort)).toBe(ok);
  });
});
