import { NODE_ANNOTATIONS_BACKUP_ANNOTATION, NODE_LABELS_BACKUP_ANNOTATION } from '../api/index.ts';

type StringMap = Record<string, string>;
export interface NodeMetadata {
  labels?: StringMap | undefined;
  annotations?: StringMap | undefined;
}

/** The remediation annotations that keep a Node's labels and annotations while it is deleted (JSON, as CAPM3 writes them). */
export function nodeBackupAnnotations(node: NodeMetadata): StringMap {
  return {
    [NODE_ANNOTATIONS_BACKUP_ANNOTATION]: node.annotations ? JSON.stringify(node.annotations) : '',
    [NODE_LABELS_BACKUP_ANNOTATION]: node.labels ? JSON.stringify(node.labels) : '',
  };
}

export function isBackedUp(remediationAnnotations: StringMap | undefined, node: NodeMetadata): boolean {
  const wanted = nodeBackupAnnotations(node);
  return Object.entries(wanted).every(([key, value]) => remediationAnnotations?.[key] === value);
}

export function hasNodeBackup(remediationAnnotations: StringMap | undefined): boolean {
  return Boolean(remediationAnnotations?.[NODE_ANNOTATIONS_BACKUP_ANNOTATION] || remediationAnnotations?.[NODE_LABELS_BACKUP_ANNOTATION]);
}

/**
 * What to add to the re-registered Node: each backed-up label and annotation it does not
 * carry now (what the new kubelet set wins). Undefined when nothing is missing. A backup that
 * is no JSON object is skipped and reported, never retried forever.
 */
export function nodeRestorePatch(remediationAnnotations: StringMap | undefined, node: NodeMetadata):
  { patch: { labels?: StringMap; annotations?: StringMap } | undefined; unreadable: string[] } {
  const unreadable: string[] = [];
  const missing = (key: string, current: StringMap | undefined): StringMap | undefined => {
    const raw = remediationAnnotations?.[key];
    if (!raw) return undefined;
    const saved = parseStringMap(raw);
    if (saved === undefined) {
      unreadable.push(key);
      return undefined;
    }
    const added = Object.fromEntries(Object.entries(saved).filter(([name]) => current?.[name] === undefined));
    return Object.keys(added).length ? added : undefined;
  };
  const labels = missing(NODE_LABELS_BACKUP_ANNOTATION, node.labels);
  const annotations = missing(NODE_ANNOTATIONS_BACKUP_ANNOTATION, node.annotations);
  const patch = labels || annotations ? { ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) } : undefined;
  return { patch, unreadable };
}

function parseStringMap(raw: string): StringMap | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return undefined;
  }
}
