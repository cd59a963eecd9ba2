/**
 * The app's own link to a line of a text file of an artifact:
 * `debusine-desktop://log/<artifact id>?path=<path>&line=<line, from 1>&server=<origin>`.
 * Main parses it (src/main/service/deep-links.ts) and opens the viewer there, on the server
 * the link names (an artifact id means nothing without its server); it names the file the
 * same way the viewer opens it, so nothing else in it is trusted.
 */
export const LOG_LINK_HOST = 'log';

/**
 * `server` is the server's web origin (`https://debusine.debian.net`); `line` is 0-based,
 * as in the viewer, and the link counts from 1, as people do.
 */
export function logLink(place: {
  server: string;
  artifactId: number;
  path: string;
  line: number;
}): string {
  const { artifactId, path, line } = place;
  const server = new URL(place.server).origin;
  const query = new URLSearchParams({ path, line: String(line + 1), server });
  return `debusine-desktop://${LOG_LINK_HOST}/${String(artifactId)}?${query.toString()}`;
}
