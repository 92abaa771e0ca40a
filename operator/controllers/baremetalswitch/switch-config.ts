// The switch configuration Ironic's networking service reads (its [ironic_networking]
// switch_config_file): one INI section per BareMetalSwitch, byte for byte what BMO writes,
// so a Secret written by either operator reads the same.
import { posix } from 'node:path';
import type { BareMetalSwitch } from '../../api/baremetalswitch.ts';

/** The key of the configuration Secret that holds the INI file. */
export const SWITCH_CONFIG_KEY = 'switch-configs.conf';
export const SWITCH_CONFIG_HEADER = '# This file is managed by the Baremetal Operator\n\n';

/** The credentials Secret's keys BMO reads. */
export const CREDENTIAL_KEYS = { username: 'username', password: 'password', sshPrivateKey: 'ssh-privatekey', adminPassword: 'admin-password' } as const;

/** How the switch is logged in to, from its credentials Secret (decoded text; the key stays base64). */
export type SwitchLogin =
  | { username: string; sshPrivateKeyBase64: string; adminPassword?: string }
  | { username: string; password: string; adminPassword?: string };

/** Why a switch is left out of the file: BMO's credential errors, and values the INI format cannot hold. */
export interface SwitchProblem {
  reason: 'credentials' | 'spec';
  message: string;
}

export type LoginResult = { ok: true; login: SwitchLogin } | { ok: false; problem: SwitchProblem };

const LINE_BREAK = /[\r\n]/;

function decoded(data: Record<string, string>, key: string): string | undefined {
  const value = data[key];
  return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
}

/** The login a credentials Secret's data (base64 values, as stored) gives, or what is wrong with it. */
export function loginFromSecret(secretName: string, data: Record<string, string>): LoginResult {
  const fail = (message: string): LoginResult => ({ ok: false, problem: { reason: 'credentials', message } });
  const username = decoded(data, CREDENTIAL_KEYS.username);
  if (username === undefined) return fail(`credentials secret ${secretName} missing '${CREDENTIAL_KEYS.username}' key`);
  const adminPassword = decoded(data, CREDENTIAL_KEYS.adminPassword);
  const password = decoded(data, CREDENTIAL_KEYS.password);
  const sshPrivateKeyBase64 = data[CREDENTIAL_KEYS.sshPrivateKey];
  if (sshPrivateKeyBase64 === undefined && password === undefined) {
    return fail(`credentials secret ${secretName} missing '${CREDENTIAL_KEYS.password}' or '${CREDENTIAL_KEYS.sshPrivateKey}' key`);
  }
  // A line break would end the INI line and let the value write further settings or sections.
  const inFile = { [CREDENTIAL_KEYS.username]: username, [CREDENTIAL_KEYS.adminPassword]: adminPassword, ...(sshPrivateKeyBase64 === undefined ? { [CREDENTIAL_KEYS.password]: password } : {}) };
  const broken = Object.entries(inFile).find(([, value]) => value !== undefined && LINE_BREAK.test(value));
  if (broken) return fail(`credentials secret ${secretName} key '${broken[0]}' holds a line break, which the switch configuration file cannot hold`);
  const admin = adminPassword ? { adminPassword } : {};
  return {
    ok: true,
    login: sshPrivateKeyBase64 !== undefined ? { username, sshPrivateKeyBase64, ...admin } : { username, password: password ?? '', ...admin },
  };
}

/** Spec values the INI line format cannot hold (the CRD leaves address and deviceType free text). */
export function specProblem(bareMetalSwitch: BareMetalSwitch): SwitchProblem | undefined {
  const { address, deviceType } = bareMetalSwitch.spec;
  const field = LINE_BREAK.test(address) ? 'address' : LINE_BREAK.test(deviceType) ? 'deviceType' : undefined;
  return field ? { reason: 'spec', message: `spec.${field} holds a line break, which the switch configuration file cannot hold` } : undefined;
}

/** BMO's key file name for a switch: its MAC with dashes, as colons cannot be in a Secret key. */
export function keyFileName(macAddress: string): string {
  return `${macAddress.replaceAll(':', '-')}.key`;
}

/** One switch's section, ending in a blank line. */
export function switchSection(bareMetalSwitch: BareMetalSwitch, login: SwitchLogin, options: { credentialsPath: string }): string {
  const { spec } = bareMetalSwitch;
  const lines = [`[switch:${bareMetalSwitch.metadata.name ?? ''}]`, `address=${spec.address}`, `mac_address=${spec.macAddress}`];
  if (spec.port !== undefined) lines.push(`port=${spec.port}`);
  lines.push(`driver_type=${spec.driver}`, `device_type=${spec.deviceType}`);
  if (spec.disableCertificateVerification) lines.push('insecure=true');
  lines.push(`username=${login.username}`);
  lines.push('sshPrivateKeyBase64' in login ? `key_file=${posix.join(options.credentialsPath, keyFileName(spec.macAddress))}` : `password=${login.password}`);
  if (login.adminPassword) lines.push(`enable_secret=${login.adminPassword}`);
  return `${lines.join('\n')}\n\n`;
}

/** The whole file: the header and the sections in the order of their switches' names. */
export function switchConfigFile(sections: ReadonlyMap<string, string>): string {
  const names = [...sections.keys()].sort();
  return SWITCH_CONFIG_HEADER + names.map((name) => sections.get(name)).join('');
}
