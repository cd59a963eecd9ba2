/**
 * Users by id. The API names a work request's creator only by id (`created_by`), and
 * whoami only by name; Debusine's web UI (0.12+) answers `/-/user/{id}/` with a redirect to
 * `/-/user/{username}/` for a token-authenticated request, which is how the app learns the
 * name behind an id. Earlier servers have no such page (404) and names stay unknown.
 */
import { DebusineError } from '../../shared/errors';
import type { HttpTransport } from './http';
import { errorFromResponse } from './http-errors';
import { webuiUrl } from './workspaces';

const USER_PAGE = /\/-\/user\/([^/]+)\/?$/;

/** The username behind a user id; null when the server does not say (or has no such user). */
export async function userName(http: HttpTransport, id: number): Promise<string | null> {
  if (!Number.isSafeInteger(id) || id < 1) {
    throw new DebusineError('validation', `userName: not a user id: ${String(id)}`, {
      operation: 'userName',
      field: 'id',
    });
  }
  const url = webuiUrl(http.apiUrl, `/-/user/${String(id)}/`);
  const response = await http.send({ operation: 'userName', method: 'GET', path: url });
  if (response.status === 301 || response.status === 302) {
    await response.body.dump();
    const location = response.headers.location;
    const target = Array.isArray(location) ? location[0] : location;
    if (!target) return null;
    const match = USER_PAGE.exec(new URL(target, url).pathname);
    const name = match?.[1];
    if (name === undefined) return null;
    try {
      return decodeURIComponent(name);
    } catch {
      return null;
    }
  }
  if (response.status === 404 || response.status === 200) {
    // 404: no such page (before 0.12) or no such user; 200: a page without the redirect.
    await response.body.dump();
    return null;
  }
  throw await errorFromResponse('userName', response);
}
