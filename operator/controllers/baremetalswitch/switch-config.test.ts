import { describe, expect, it } from '@jest/globals';
import { bareMetalSwitchSchema } from '../../api/baremetalswitch.ts';
import type { BareMetalSwitch } from '../../api/baremetalswitch.ts';
import { SWITCH_CONFIG_HEADER, keyFileName, loginFromSecret, specProblem, switchConfigFile, switchSection } from './switch-config.ts';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const aSwitch = (name: string, spec: Record<string, unknown> = {}): BareMetalSwitch => bareMetalSwitchSchema.parse({
  metadata: { namespace: 'metal3', name },
  spec: { address: '127.0.0.1', macAddress: '00:00:5E:00:53:01', deviceType: 'netmiko_cisco_ios', credentials: { name: `${name}-creds` }, ...spec },
});
const login = (data: Record<string, string>) => {
  const result = loginFromSecret('creds', Object.fromEntries(Object.entries(data).map(([key, value]) => [key, base64(value)])));
  if (!result.ok) throw new Error(result.problem.message);
  return result.login;
};
const PATH = { credentialsPath: '/etc/ironic/switch-credentials' };

describe('switch configuration sections (BMO\'s template, byte for byte)', () => {
  it('writes a password switch with only the lines it needs, the driver defaulted', () => {
    expect(switchSection(aSwitch('switch-1'), login({ username: 'admin', password: 'secret123' }), PATH)).toBe(
      '[switch:switch-1]\naddress=127.0.0.1\nmac_address=00:00:5E:00:53:01\ndriver_type=generic-switch\ndevice_type=netmiko_cisco_ios\nusername=admin\npassword=secret123\n\n',
    );
  });

  it('writes port, insecure, a key file under the mount path and enable_secret when given', () => {
    const keyed = login({ username: 'root', 'ssh-privatekey': '-----BEGIN KEY-----\nabc\n-----END KEY-----\n', password: 'ignored', 'admin-password': 'enable' });
    expect(switchSection(aSwitch('switch-2', { port: 2222, disableCertificateVerification: true }), keyed, { credentialsPath: '/etc/ironic/switch-credentials/' })).toBe(
      '[switch:switch-2]\naddress=127.0.0.1\nmac_address=00:00:5E:00:53:01\nport=2222\ndriver_type=generic-switch\ndevice_type=netmiko_cisco_ios\ninsecure=true\n' +
      'username=root\nkey_file=/etc/ironic/switch-credentials/00-00-5E-00-53-01.key\nenable_secret=enable\n\n',
    );
    // The key goes to the credentials Secret as stored, never into the file.
    expect(keyed).toEqual({ username: 'root', sshPrivateKeyBase64: base64('-----BEGIN KEY-----\nabc\n-----END KEY-----\n'), adminPassword: 'enable' });
  });

  it('keeps an empty password line and leaves out an empty admin password, as Go\'s template does', () => {
    expect(switchSection(aSwitch('s'), login({ username: '', password: '', 'admin-password': '' }), PATH)).toContain('username=\npassword=\n\n');
  });

  it('puts the header first and the sections in name order; no switches is the header alone', () => {
    expect(switchConfigFile(new Map([['b', '[switch:b]\n\n'], ['a', '[switch:a]\n\n']]))).toBe(`${SWITCH_CONFIG_HEADER}[switch:a]\n\n[switch:b]\n\n`);
    expect(switchConfigFile(new Map())).toBe('# This file is managed by the Baremetal Operator\n\n');
  });

  it('names key files by MAC with dashes', () => {
    expect(keyFileName('aa:bb:cc:dd:ee:ff')).toBe('aa-bb-cc-dd-ee-ff.key');
  });
});

describe('switch credentials', () => {
  const problem = (data: Record<string, string>) => {
    const result = loginFromSecret('creds', Object.fromEntries(Object.entries(data).map(([key, value]) => [key, base64(value)])));
    return result.ok ? undefined : result.problem.message;
  };

  it('gives BMO\'s messages for missing keys', () => {
    expect(problem({ password: 'x' })).toBe("credentials secret creds missing 'username' key");
    expect(problem({ username: 'admin' })).toBe("credentials secret creds missing 'password' or 'ssh-privatekey' key");
  });

  it('refuses a value with a line break, which could write settings of its own into the file', () => {
    expect(problem({ username: 'admin', password: 'x\n[switch:evil]' })).toBe("credentials secret creds key 'password' holds a line break, which the switch configuration file cannot hold");
    expect(problem({ username: 'admin\r', password: 'x' })).toContain("key 'username' holds a line break");
    // A private key has line breaks, and stays out of the file.
    expect(problem({ username: 'admin', 'ssh-privatekey': 'a\nb\n' })).toBeUndefined();
  });

  it('refuses spec text with a line break', () => {
    expect(specProblem(aSwitch('s', { address: '127.0.0.1\npassword=x' }))?.message).toBe('spec.address holds a line break, which the switch configuration file cannot hold');
    expect(specProblem(aSwitch('s'))).toBeUndefined();
  });
});
