import { describe, expect, it } from '@jest/globals';
import { goRequestUriProblem } from './go-request-uri.ts';

// Expected answers are what BMO's webhook (Go's url.ParseRequestURI) gives for each URL.
describe('goRequestUriProblem (Go\'s url.ParseRequestURI)', () => {
  it.each([
    'http://10.0.0.1/os.img', 'https://[fd00::1]:8080/os.img?x=%zz', 'oci://registry:5000/os:1', 'ftp://h:80:80/a',
    'http://user:p@ss@host/x', 'http:opaque', '/abs/path', 'http://h/%41', 'http://[fe80::1%25en0]/x', 'http://caf%C3%A9/',
  ])('takes %s', (url) => {
    expect(goRequestUriProblem(url)).toBeUndefined();
  });

  it.each([
    ['', 'empty url'],
    ['os.img', 'invalid URI for request'],
    [':x', 'missing protocol scheme'],
    ['http://h/\u0007', 'net/url: invalid control character in URL'],
    ['http://h:port/', 'invalid port ":port" after host'],
    ['http://10.0.0.1:80:80/', 'invalid port ":80:80" after host'],
    ['http://h/a%zz', 'invalid URL escape "%zz"'],
    ['http://a b/', 'invalid character " " in host name'],
    ['http://h%41/', 'invalid URL escape "%41"'],
    ['http://[fd00::1/', "missing ']' in host"],
    ['http://[10.0.0.1]/', 'invalid IP-literal'],
    ['http://a[b]/', 'invalid IP-literal'],
    ['http://[zz]/', 'invalid host: ParseAddr("zz"): unable to parse IP'],
    ['http://u{s@h/', 'net/url: invalid userinfo'],
  ])('refuses %j: %s', (url, problem) => {
    expect(goRequestUriProblem(url)).toBe(problem);
  });
});
