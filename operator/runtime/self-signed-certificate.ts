import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * A self-signed serving certificate made in memory, as controller-runtime makes one for its
 * secure metrics server when no certificate directory is given. Node can use X.509 but not
 * write it, so the certificate is encoded here in DER: ECDSA P-256, SHA-256, one year, the
 * names as subjectAltNames, for TLS servers only.
 */
export function selfSignedCertificate(options: { commonName: string; names: string[]; now?: Date }): { cert: string; key: string } {
  const now = options.now ?? new Date();
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const subject = name(options.commonName);
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))), // X.509 v3
    integer(randomBytes(16)),
    ECDSA_WITH_SHA256,
    subject,
    sequence(time(new Date(now.getTime() - 60_000)), time(new Date(now.getTime() + 365 * 24 * 3600_000))),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(
      extension(OID.keyUsage, { critical: true }, bitString(Buffer.from([0x80]), 7)), // digitalSignature
      extension(OID.extKeyUsage, { critical: false }, sequence(oid(OID.serverAuth))),
      extension(OID.basicConstraints, { critical: true }, sequence()),
      extension(OID.subjectAltName, { critical: false }, sequence(...options.names.map(generalName))),
    )),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = sequence(tbs, ECDSA_WITH_SHA256, bitString(signature, 0));
  return { cert: pem('CERTIFICATE', certificate), key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
};

function tlv(tag: number, content: Buffer): Buffer {
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.concat([Buffer.from([tag, 0x80 | bytes.length, ...bytes]), content]);
}

const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const explicit = (tagNumber: number, content: Buffer) => tlv(0xa0 | tagNumber, content);
const bitString = (bits: Buffer, unusedBits: number) => tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), bits]));

/** A DER INTEGER from unsigned big-endian bytes (a leading zero keeps it positive). */
function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  return tlv(0x02, trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let value = arc >> 7; value > 0; value >>= 7) groups.unshift(0x80 | (value & 0x7f));
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}

const ECDSA_WITH_SHA256 = sequence(oid(OID.ecdsaWithSha256));

function name(commonName: string): Buffer {
  return sequence(tlv(0x31, sequence(oid(OID.commonName), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
}

/** UTCTime, which X.509 requires for dates before 2050. */
function time(date: Date): Buffer {
  const iso = date.toISOString(); // 2026-12-06T14:20:00.000Z
  const text = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

function extension(id: string, options: { critical: boolean }, value: Buffer): Buffer {
  return sequence(oid(id), ...(options.critical ? [tlv(0x01, Buffer.from([0xff]))] : []), tlv(0x04, value));
}

/** A subjectAltName entry: iPAddress for an IP, dNSName otherwise. */
function generalName(entry: string): Buffer {
  const family = isIP(entry);
  if (family === 4) return tlv(0x87, Buffer.from(entry.split('.').map(Number)));
  if (family === 6) return tlv(0x87, ipv6Bytes(entry));
  return tlv(0x82, Buffer.from(entry, 'ascii'));
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail] = address.includes('::') ? address.split('::') as [string, string] : [address, undefined];
  const groups = (text: string | undefined) => (text ? text.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return Buffer.from(all.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  }));
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
