// Follows Ironic's marker-based paging until a page is not full.
import type { Page } from '../types.ts';

/** Upper bound on pages, so a server that keeps returning the same marker cannot loop us forever. */
const MAX_PAGES = 10_000;

export async function collectAllPages<T>(fetchPage: (marker: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let marker: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(marker);
    items.push(...result.items);
    marker = result.nextMarker;
    if (marker === undefined || seen.has(marker)) return items;
    seen.add(marker);
  }
  throw new Error(`gave up paging after ${MAX_PAGES} pages`);
}
