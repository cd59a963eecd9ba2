/**
 * The server's web page of a work request, for a notification's "Open in browser": read
 * from the work request, and only ever a page of that server.
 */
import { DebusineError } from '../../shared/errors';
import { workRequestWebPath } from '../../shared/web-paths';
import type { WorkRequestSource } from './read-ahead';

export async function workRequestWebPage(
  client: Pick<WorkRequestSource, 'workRequestGet'> & { http: { siteUrl: string } },
  id: number,
): Promise<string> {
  const { siteUrl } = client.http;
  const path = workRequestWebPath(await client.workRequestGet(id));
  // Only pages of the server itself are opened, whatever path the server sent.
  const target = new URL(path, `${siteUrl}/`);
  if (target.origin !== new URL(siteUrl).origin) {
    throw new DebusineError('bad-response', `Work request ${String(id)} links off-site`, {
      operation: 'openInBrowser',
    });
  }
  return target.toString();
}
