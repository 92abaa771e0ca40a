// BMO's --tls-cipher-suites and --tls-curve-preferences take Go's names (IANA cipher suite names,
// Go's curve constants); Node's TLS takes OpenSSL's. These tables translate the names Go offers.
import { createSecureContext } from 'node:tls';

/** TLS 1.2 suites Go offers, by IANA name, with OpenSSL's name (k8s cliflag's lists). */
const TLS12_SUITES: Readonly<Record<string, string>> = {
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  // Go's older names for the two above, still accepted by cliflag.
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
  // Insecure in Go's judgement: accepted with a warning, as BMO does.
  TLS_RSA_WITH_RC4_128_SHA: 'RC4-SHA',
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: 'DES-CBC3-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: 'ECDHE-ECDSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: 'ECDHE-RSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: 'ECDHE-RSA-DES-CBC3-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
};

const INSECURE_SUITES = new Set([
  'TLS_RSA_WITH_RC4_128_SHA', 'TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_RSA_WITH_AES_256_CBC_SHA',
  'TLS_RSA_WITH_AES_128_CBC_SHA256', 'TLS_RSA_WITH_AES_128_GCM_SHA256', 'TLS_RSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_ECDSA_WITH_RC4_128_SHA',
  'TLS_ECDHE_RSA_WITH_RC4_128_SHA', 'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA', 'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256',
  'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256',
]);

/** TLS 1.3 suites: Go accepts their names but never lets them be chosen, so neither does this. */
const TLS13_SUITES = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'];

/** Go's curve names (BMO's supportedTLSCurvesPreferences) and OpenSSL's group names. */
const CURVES: Readonly<Record<string, string>> = {
  X25519: 'X25519',
  CurveP256: 'P-256',
  CurveP384: 'P-384',
  CurveP521: 'P-521',
  X25519MLKEM768: 'X25519MLKEM768',
  SecP256r1MLKEM768: 'SecP256r1MLKEM768',
  SecP384r1MLKEM1024: 'SecP384r1MLKEM1024',
};

export interface CipherSuiteChoice {
  /** OpenSSL's cipher list: the TLS 1.2 suites asked for, then every TLS 1.3 suite as Go keeps them. */
  ciphers: string;
  /** The insecure suites asked for, to warn about. */
  insecure: string[];
}

const names = (list: string): string[] => list.split(',').map((name) => name.trim()).filter(Boolean);

function offeredByOpenSsl(options: { ciphers?: string; ecdhCurve?: string }): boolean {
  try {
    createSecureContext(options);
    return true;
  } catch {
    return false;
  }
}

/** Go cipher suite names, comma-separated, as OpenSSL's list; throws naming the first it cannot use. */
export function cipherSuitesFromGoNames(list: string): CipherSuiteChoice {
  const tls12: string[] = [];
  const insecure: string[] = [];
  for (const name of names(list)) {
    if (TLS13_SUITES.includes(name)) continue;
    const openSsl = TLS12_SUITES[name];
    if (openSsl === undefined) throw new Error(`cipher suite ${name} not supported or doesn't exist`);
    if (!offeredByOpenSsl({ ciphers: openSsl })) throw new Error(`cipher suite ${name} is not offered by this build's OpenSSL`);
    if (INSECURE_SUITES.has(name)) insecure.push(name);
    tls12.push(openSsl);
  }
  return { ciphers: [...tls12, ...TLS13_SUITES].join(':'), insecure };
}

/** Go curve names, comma-separated, as OpenSSL's group list; throws naming the first it does not know. */
export function curvesFromGoNames(list: string): string {
  const groups = names(list).map((name) => {
    const group = CURVES[name];
    if (group === undefined) throw new Error(`unrecognized TLS curve preference "${name}" (expected one of ${Object.keys(CURVES).join(', ')})`);
    if (!offeredByOpenSsl({ ecdhCurve: group })) throw new Error(`TLS curve ${name} is not offered by this build's OpenSSL`);
    return group;
  });
  return groups.join(':');
}

/** Go's crypto/tls CurveID numbers, which Cluster API's --tls-curve-preferences takes. */
const CURVE_IDS: Readonly<Record<string, string>> = {
  23: 'CurveP256',
  24: 'CurveP384',
  25: 'CurveP521',
  29: 'X25519',
  4587: 'SecP256r1MLKEM768',
  4588: 'X25519MLKEM768',
  4589: 'SecP384r1MLKEM1024',
};

/** Go CurveID numbers, comma-separated, as OpenSSL's group list; throws naming the first it does not know. */
export function curvesFromGoIds(list: string): string {
  const goNames = names(list).map((id) => {
    const name = /^\d+$/.test(id) ? CURVE_IDS[id] : undefined;
    if (name === undefined) throw new Error(`unsupported TLS curve ID "${id}" (expected one of ${Object.keys(CURVE_IDS).join(', ')})`);
    return name;
  });
  return curvesFromGoNames(goNames.join(','));
}
