import type { Tags } from 'yaml';
import { parseAllDocuments } from 'yaml';

// BMO decodes these Secrets with sigs.k8s.io/yaml (go-yaml v2, YAML 1.1 booleans such as
// `yes`/`on`, 0755 octal). Base-60 numbers and timestamps are dropped from the schema because
// go-yaml keeps them as strings (an unquoted MAC like 52:54:00:12:34:56 must stay a string),
// and the exotic collection tags because their JavaScript forms are not plain JSON.
const DROPPED_TAGS = new Set([
  'tag:yaml.org,2002:timestamp',
  'tag:yaml.org,2002:binary',
  'tag:yaml.org,2002:omap',
  'tag:yaml.org,2002:pairs',
  'tag:yaml.org,2002:set',
]);

function goYamlTags(tags: Tags): Tags {
  return tags.filter((tag) => {
    if (typeof tag !== 'object' || tag === null) return true;
    if ('format' in tag && tag.format === 'TIME') return false;
    return !('tag' in tag && DROPPED_TAGS.has(tag.tag));
  });
}

export type YamlMapResult = { ok: true; value: Record<string, unknown> | undefined } | { ok: false; reason: string };

function describeType(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/**
 * A YAML or JSON mapping. `null` or an empty document gives undefined (Go leaves the map nil).
 * Reasons carry positions and error codes only, never the text itself.
 */
export function parseYamlMap(text: string): YamlMapResult {
  // logLevel silent: the yaml library's warnings quote the text (a Secret's content) to stderr.
  const documents = parseAllDocuments(text, { version: '1.1', customTags: goYamlTags, uniqueKeys: false, logLevel: 'silent' });
  // Like go-yaml, only the first document counts.
  const document = Array.isArray(documents) ? documents[0] : undefined;
  if (document === undefined) return { ok: true, value: undefined };
  const problem = document.errors[0];
  if (problem !== undefined) {
    const position = problem.linePos?.[0];
    const where = position === undefined ? '' : ` at line ${position.line}, column ${position.col}`;
    return { ok: false, reason: `invalid YAML (${problem.code})${where}` };
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch {
    // e.g. alias expansion beyond the limit ("billion laughs").
    return { ok: false, reason: 'invalid YAML (too many aliases)' };
  }
  if (value === null || value === undefined) return { ok: true, value: undefined };
  if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: `expected a map, found ${describeType(value)}` };
  return { ok: true, value: value as Record<string, unknown> };
}
