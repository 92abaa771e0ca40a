import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/** A write_files entry; content as written, or base64 (`b64`/`base64`). */
const writeFileSchema = z.object({
  path: z.string().min(1),
  content: z.string().default(''),
  encoding: z.string().optional(),
}).loose();

/** The cloud-config keys the simulator reads: set_hostname's, and runcmd and write_files for kubeadm (kubeadm.ts). */
const cloudConfigSchema = z
  .object({
    hostname: z.string().min(1).optional().catch(undefined),
    fqdn: z.string().min(1).optional().catch(undefined),
    prefer_fqdn_over_hostname: z.boolean().optional().catch(undefined),
    runcmd: z.array(z.union([z.string(), z.array(z.string())])).optional().catch(undefined),
    write_files: z.array(writeFileSchema).optional().catch(undefined),
  })
  .loose();

export type CloudConfig = z.infer<typeof cloudConfigSchema>;

/**
 * `#cloud-config` user data as a map; undefined for other formats (scripts, MIME, Ignition) or
 * bad YAML. A first line `## template: jinja` (Cluster API's kubeadm bootstrap data starts so)
 * is taken off: the rest is still cloud-config, and quoted Jinja expressions parse as strings.
 */
export function parseCloudConfig(userData: string | undefined): CloudConfig | undefined {
  if (userData === undefined) return undefined;
  userData = userData.replace(/^## template:[ \t]*jinja[ \t]*\r?\n/, '');
  if (!/^#cloud-config[ \t]*\r?\n/.test(`${userData}\n`)) return undefined;
  let parsed: unknown;
  try {
    parsed = parseYaml(userData);
  } catch {
    return undefined;
  }
  const result = cloudConfigSchema.safeParse(parsed);
  return result.success ? result.data : undefined;
}

const shortName = (name: string) => name.split('.')[0] ?? name;

/**
 * The hostname cloud-init gives the installed OS, from user data alone (util.get_hostname_fqdn
 * and cc_set_hostname): `fqdn` wins for the domain, `hostname` for the short name, a dotted
 * `hostname` is split, and the short name is set unless `prefer_fqdn_over_hostname`.
 */
export function userDataHostname(userData: string | undefined): string | undefined {
  const config = parseCloudConfig(userData);
  if (config === undefined) return undefined;
  let hostname: string | undefined;
  let fqdn: string | undefined;
  if (config.fqdn !== undefined) {
    fqdn = config.fqdn;
    hostname = config.hostname ?? shortName(fqdn);
  } else if (config.hostname !== undefined && config.hostname.indexOf('.') > 0) {
    fqdn = config.hostname;
    hostname = shortName(config.hostname);
  } else {
    hostname = config.hostname;
  }
  return config.prefer_fqdn_over_hostname === true && fqdn !== undefined ? fqdn : hostname;
}

/**
 * The hostname the OpenStack datasource takes from meta_data.json: its `hostname` key is
 * copied over `local-hostname` (helpers/openstack.py KEY_COPIES); a dotted one gives the short name.
 */
export function metaDataHostname(metaData: Record<string, unknown>): string | undefined {
  const value = metaData.hostname ?? metaData['local-hostname'];
  return typeof value === 'string' && value !== '' ? shortName(value) : undefined;
}
