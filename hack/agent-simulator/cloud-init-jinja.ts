/** The first line that makes cloud-init render user data as a Jinja template. */
const JINJA_HEADER = /^##[ \t]*template:[ \t]*jinja[ \t]*\r?\n/i;
/** `{{ a.b.c }}` and `{{ a['b'].c }}`: the expressions Cluster API's and CAPM3's templates use. */
const EXPRESSION = /\{\{\s*([A-Za-z_]\w*(?:\.[A-Za-z_][\w-]*|\[\s*'[^']*'\s*\]|\[\s*"[^"]*"\s*\])*)\s*\}\}/g;
const SEGMENT = /\.([A-Za-z_][\w-]*)|\[\s*'([^']*)'\s*\]|\[\s*"([^"]*)"\s*\]/g;
/** What cloud-init renders for a variable its instance data does not have. */
const MISSING_PREFIX = 'CI_MISSING_JINJA_VAR/';

/** cloud-init also offers every instance-data key that has hyphens with underscores instead. */
function withUnderscoreAliases(metaData: Record<string, unknown>): Record<string, unknown> {
  const aliased: Record<string, unknown> = { ...metaData };
  for (const [key, value] of Object.entries(metaData)) {
    const alias = key.replaceAll('-', '_');
    if (!(alias in aliased)) aliased[alias] = value;
  }
  return aliased;
}

/** The instance data a config drive (OpenStack datasource) gives: `ds.meta_data` and the standard `v1` keys the templates use. */
function instanceData(metaData: Record<string, unknown>): Record<string, unknown> {
  const localHostname = metaData.hostname ?? metaData['local-hostname'];
  return {
    ds: { meta_data: withUnderscoreAliases(metaData) },
    v1: { local_hostname: localHostname, instance_id: metaData.uuid, availability_zone: metaData.availability_zone },
  };
}

function lookup(data: Record<string, unknown>, expression: string): string {
  const root = /^[A-Za-z_]\w*/.exec(expression)![0];
  let value: unknown = data[root];
  let name = root;
  for (const [, dotted, single, double] of expression.slice(root.length).matchAll(SEGMENT)) {
    if (value === undefined || value === null) break;
    name = dotted ?? single ?? double ?? '';
    value = typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
  }
  if (value === undefined || value === null) return `${MISSING_PREFIX}${name}`;
  return typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean);
}

/**
 * User data as cloud-init runs it: a Jinja template (first line `## template: jinja`, as Cluster
 * API's kubeadm bootstrap data has) rendered against the config drive's meta_data, the header
 * dropped; other user data unchanged. Only `{{ … }}` lookups are rendered, which is all the
 * kubeadm and Metal3 templates use; a lookup that finds nothing renders as cloud-init's
 * `CI_MISSING_JINJA_VAR/<name>`.
 */
export function renderUserData(userData: string | undefined, metaData: Record<string, unknown>): string | undefined {
  if (userData === undefined || !JINJA_HEADER.test(userData)) return userData;
  const data = instanceData(metaData);
  return userData.replace(JINJA_HEADER, '').replace(EXPRESSION, (_match, expression: string) => lookup(data, expression));
}
