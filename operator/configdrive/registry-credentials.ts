// Registry credentials for oci:// images from a Docker-config Secret (BMO's
// secretutils.ExtractRegistryCredentials and image auth validator). Messages name the Secret,
// its type and the registry, never a value from the Secret: a JSON parser's own message quotes
// the input, so it is not passed on.

export const DOCKER_CONFIG_JSON_TYPE = 'kubernetes.io/dockerconfigjson';
export const DOCKER_CFG_TYPE = 'kubernetes.io/dockercfg';
const DOCKER_CONFIG_JSON_KEY = '.dockerconfigjson';
const DOCKER_CFG_KEY = '.dockercfg';

/** Docker Hub's names all resolve to the key `docker login` writes for it. */
const DOCKER_HUB_HOSTS = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);
const DOCKER_HUB_KEY = 'https://index.docker.io/v1/';

/** The Secret as read from Kubernetes: `data` values are base64. */
export interface DockerConfigSecret {
  name: string;
  type?: string | undefined;
  data?: Record<string, string> | undefined;
}

/** BMO's event reasons: the Secret's type is wrong, or no credentials could be read from it. */
export type RegistryCredentialsProblem = 'ImageAuthFormatUnsupported' | 'ImageAuthParseError';

export type RegistryCredentialsResult =
  | { ok: true; credentials: string; registry: string }
  | { ok: false; reason: RegistryCredentialsProblem; message: string };

interface AuthEntry {
  auth?: unknown;
  username?: unknown;
  password?: unknown;
  identitytoken?: unknown;
}

/** The registry host (with port) of an oci:// URL, as Go's url.Parse gives it. */
export function registryHost(imageUrl: string): string | undefined {
  const match = /^oci:\/\/([^/?#]+)/i.exec(imageUrl);
  return match?.[1]?.replace(/^[^@]*@/, '') || undefined;
}

function decodeData(secret: DockerConfigSecret): { auths: Record<string, AuthEntry> } | { problem: string } {
  const data = secret.data ?? {};
  const [key, encoded] = data[DOCKER_CONFIG_JSON_KEY] !== undefined
    ? [DOCKER_CONFIG_JSON_KEY, data[DOCKER_CONFIG_JSON_KEY]]
    : [DOCKER_CFG_KEY, data[DOCKER_CFG_KEY]];
  if (encoded === undefined) return { problem: `secret does not contain ${DOCKER_CONFIG_JSON_KEY} or ${DOCKER_CFG_KEY} key` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    return { problem: `failed to parse ${key.slice(1)}: not valid JSON` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { problem: `failed to parse ${key.slice(1)}: not a JSON object` };
  // .dockerconfigjson wraps the entries in "auths"; the legacy .dockercfg is the entries alone.
  const auths = key === DOCKER_CONFIG_JSON_KEY ? (parsed as { auths?: unknown }).auths ?? {} : parsed;
  if (typeof auths !== 'object' || auths === null || Array.isArray(auths)) return { problem: `failed to parse ${key.slice(1)}: "auths" is not a JSON object` };
  return { auths: auths as Record<string, AuthEntry> };
}

/** `username:password` of one entry, as Ironic takes it in `image_pull_secret`. */
function entryCredentials(entry: AuthEntry): string | undefined {
  if (typeof entry.identitytoken === 'string' && entry.identitytoken !== '') return `:${entry.identitytoken}`;
  if (typeof entry.username === 'string' && typeof entry.password === 'string' && entry.username !== '' && entry.password !== '') {
    return `${entry.username}:${entry.password}`;
  }
  if (typeof entry.auth !== 'string' || entry.auth === '') return undefined;
  const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
  return decoded.includes(':') && decoded !== ':' ? decoded : undefined;
}

/**
 * `username:password` for the image's registry from a kubernetes.io/dockerconfigjson or
 * kubernetes.io/dockercfg Secret. The registry is looked up by its exact host[:port] (Docker
 * Hub under all its names), as BMO does; credential helpers cannot run here and count as absent.
 */
export function registryCredentials(secret: DockerConfigSecret, imageUrl: string): RegistryCredentialsResult {
  const type = secret.type ?? '';
  if (type !== DOCKER_CONFIG_JSON_TYPE && type !== DOCKER_CFG_TYPE) {
    return {
      ok: false,
      reason: 'ImageAuthFormatUnsupported',
      message: `secret "${secret.name}" has unsupported type "${type}" (expected ${DOCKER_CONFIG_JSON_TYPE} or ${DOCKER_CFG_TYPE})`,
    };
  }
  const unreadable = (problem: string): RegistryCredentialsResult => ({
    ok: false,
    reason: 'ImageAuthParseError',
    message: `failed to extract credentials from secret "${secret.name}": ${problem}`,
  });
  const registry = registryHost(imageUrl);
  if (registry === undefined) return unreadable(`failed to extract registry host from image URL ${imageUrl}`);
  const decoded = decodeData(secret);
  if ('problem' in decoded) return unreadable(decoded.problem);
  const key = DOCKER_HUB_HOSTS.has(registry) ? DOCKER_HUB_KEY : registry;
  const entry = Object.hasOwn(decoded.auths, key) ? decoded.auths[key] : undefined;
  const credentials = typeof entry === 'object' && entry !== null ? entryCredentials(entry) : undefined;
  if (credentials === undefined) return unreadable(`registry ${registry} not found in auth config`);
  return { ok: true, credentials, registry };
}
