/** The completion websocket's address, normalised to exactly one slash before `ws/`. */
import { normaliseApiUrl } from '../api/http';

export function completionSocketUrl(
  apiUrl: string,
  query: { workspaces?: readonly string[] | undefined; since?: string | undefined },
): string {
  const url = new URL(`${normaliseApiUrl(apiUrl)}/ws/1.0/work-request/on-completed/`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (query.workspaces && query.workspaces.length > 0) {
    url.searchParams.set('workspaces', query.workspaces.join(','));
  }
  if (query.since) url.searchParams.set('completed_at_since', query.since);
  return url.toString();
}
