import type { ZodType } from 'zod';
import { paginatedSchema } from '../../shared/models';
import type { ApiContext } from './revision';

export type Query = Record<string, string | number | boolean | undefined | null>;

/**
 * Follows `next` links lazily, one page per request as the caller iterates. Works for the
 * page/count form (`?page=N`) and the cursor form (`?cursor=…`, no `count`) alike, since
 * both give the next page's absolute URL.
 */
export async function* paginate<T>(
  ctx: ApiContext,
  operation: string,
  path: string,
  item: ZodType<T>,
  query: Query = {},
): AsyncGenerator<T, void, undefined> {
  let next: string | null = ctx.http.url(path, { query });
  const seen = new Set<string>();
  while (next) {
    // A server that links a page to itself would otherwise loop forever.
    if (seen.has(next)) return;
    seen.add(next);
    const page: Page<T> = await fetchPage(ctx, operation, next, item);
    yield* page.results;
    next = page.next;
  }
}

export interface Page<T> {
  results: T[];
  /** The next page's URL, on the API's own origin; null on the last page. */
  next: string | null;
}

/** One page of a list, at `url` (built with the list's query, or a page's `next`). */
export async function fetchPage<T>(
  ctx: ApiContext,
  operation: string,
  url: string,
  item: ZodType<T>,
): Promise<Page<T>> {
  const page: { results: T[]; next?: string | null } = await ctx.request({
    operation,
    method: 'GET',
    path: url,
    schema: paginatedSchema(item),
  });
  return { results: page.results, next: page.next ? sameOrigin(ctx.http.apiUrl, page.next) : null };
}

/**
 * Servers build `next` from the request's Host and X-Forwarded-Proto, which a proxy may get
 * wrong (http behind https). The token must only go to the configured server, so the page
 * is always fetched from the API's own origin.
 */
function sameOrigin(apiUrl: string, next: string): string {
  const api = new URL(apiUrl);
  const url = new URL(next, api);
  if (url.origin === api.origin) return url.toString();
  return new URL(url.pathname + url.search, api.origin).toString();
}

/** Drains an async iterator into an array (tests and small listings). */
export async function collect<T>(items: AsyncIterable<T>, limit = Infinity): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}

/** Encodes one path segment: workspace, category and names may hold `:` or spaces. */
export function seg(value: string | number): string {
  return encodeURIComponent(String(value));
}
