// Builds request paths from route templates, and query strings the way Ironic parses them:
// lists comma-separated (args.string_list), booleans as true/false.

export type QueryValue = string | number | boolean | readonly string[] | undefined | null;

export function fillRoute(route: string, params: Readonly<Record<string, string>> | undefined): string {
  return route.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === '') throw new Error(`missing path parameter ${name} for ${route}`);
    // encodeURIComponent leaves "~" alone, which BMO's "<namespace>~<name>" node names rely on.
    return encodeURIComponent(value);
  });
}

export function buildQuery(query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) search.set(key, value.join(','));
    } else {
      search.set(key, String(value));
    }
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** The `marker` of an Ironic `next` link; the rest of the link is ignored (its host may differ). */
export function markerFromNextLink(next: string | undefined): string | undefined {
  if (next === undefined) return undefined;
  try {
    return new URL(next, 'http://placeholder.invalid').searchParams.get('marker') ?? undefined;
  } catch {
    return undefined;
  }
}
