// Which Kubernetes verb and resource a request path addresses (the API server's own request
// info, reduced): what the per-resource request counter is labelled with.
import type { QueryValue } from './kube-client.ts';

export type KubeVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'other';

export interface RequestTarget {
  verb: KubeVerb;
  /** API group, '' for the core group (and for non-resource paths). */
  group: string;
  /** Plural, with `/subresource` when there is one (`baremetalhosts/status`); '' for non-resource paths. */
  resource: string;
}

const WRITE_VERBS: Record<string, KubeVerb> = { POST: 'create', PUT: 'update', PATCH: 'patch' };

/** `/api/v1/…` and `/apis/<group>/<version>/…`: `[namespaces, <ns>,] <plural>[, <name>[, <subresource>]]`. */
export function requestTarget(options: { method: string; path: string; query?: Record<string, QueryValue>; watch?: boolean }): RequestTarget {
  const segments = options.path.split('?')[0]!.split('/').filter((segment) => segment !== '');
  let group: string;
  let rest: string[];
  if (segments[0] === 'api' && segments.length >= 3) {
    group = '';
    rest = segments.slice(2);
  } else if (segments[0] === 'apis' && segments.length >= 4) {
    group = segments[1]!;
    rest = segments.slice(3);
  } else {
    return { verb: 'other', group: '', resource: '' };
  }
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  const [plural, name, subresource] = rest;
  const resource = subresource ? `${plural}/${subresource}` : plural!;
  return { verb: verbOf(options, name !== undefined), group, resource };
}

function verbOf(options: { method: string; query?: Record<string, QueryValue>; watch?: boolean }, named: boolean): KubeVerb {
  switch (options.method) {
    case 'GET': {
      const watch = options.watch === true || options.query?.watch === true || options.query?.watch === 'true' || options.query?.watch === '1';
      if (watch) return 'watch';
      return named ? 'get' : 'list';
    }
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return WRITE_VERBS[options.method] ?? 'other';
  }
}
