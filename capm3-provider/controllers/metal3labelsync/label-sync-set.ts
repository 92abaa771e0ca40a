// CAPM3's label sync, the pure part: which labels a prefix set covers, and what a Node needs to
// carry its host's labels under those prefixes (nothing else of the Node's is touched).

/** A DNS-1123 subdomain, what Kubernetes allows as a label prefix. */
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const MAX_PREFIX_LENGTH = 253;

export type PrefixParse = { ok: true; prefixes: ReadonlySet<string> } | { ok: false; error: string };

/** The annotation's comma-separated prefixes; empty entries are skipped, a malformed one is an error naming it. */
export function parsePrefixes(annotation: string): PrefixParse {
  const prefixes = new Set<string>();
  for (const entry of annotation.split(',')) {
    const prefix = entry.trim();
    if (prefix === '') continue;
    if (prefix.length > MAX_PREFIX_LENGTH || !DNS1123_SUBDOMAIN.test(prefix)) {
      return { ok: false, error: `invalid prefix "${prefix}": a label prefix must be a DNS-1123 subdomain (lower case letters, digits, '-' and '.', starting and ending with a letter or digit, at most ${MAX_PREFIX_LENGTH} characters)` };
    }
    prefixes.add(prefix);
  }
  return { ok: true, prefixes };
}

/** The labels whose key is `<prefix>/<name>` with the prefix in the set. */
export function labelsUnderPrefixes(labels: Readonly<Record<string, string>> | undefined, prefixes: ReadonlySet<string>): Record<string, string> {
  const covered: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels ?? {})) {
    const slash = key.indexOf('/');
    if (slash <= 0 || slash === key.length - 1) continue;
    if (prefixes.has(key.slice(0, slash))) covered[key] = value;
  }
  return covered;
}

/**
 * The merge patch of the Node's labels that makes its labels under the prefixes equal the
 * host's: a value to set, null to remove. Empty when they already agree.
 */
export function nodeLabelPatch(options: {
  hostLabels: Readonly<Record<string, string>> | undefined;
  nodeLabels: Readonly<Record<string, string>> | undefined;
  prefixes: ReadonlySet<string>;
}): Record<string, string | null> {
  const wanted = labelsUnderPrefixes(options.hostLabels, options.prefixes);
  const present = labelsUnderPrefixes(options.nodeLabels, options.prefixes);
  const patch: Record<string, string | null> = {};
  for (const key of Object.keys(present)) if (!(key in wanted)) patch[key] = null;
  for (const [key, value] of Object.entries(wanted)) if (present[key] !== value) patch[key] = value;
  return patch;
}
