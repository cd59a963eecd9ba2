/**
 * The app's own link to a line of a text file of an artifact:
 * `debusine-desktop://log/<artifact id>?path=<path>&line=<line, from 1>`. Main parses it
 * (src/main/app/deep-links.ts) and opens the viewer there; it names the file the same way
 * the viewer opens it, so nothing else in it is trusted.
 */
export const LOG_LINK_HOST = 'log';

/** `line` is 0-based, as in the viewer; the link counts from 1, as people do. */
export function logLink(artifactId: number, path: string, line: number): string {
  const query = new URLSearchParams({ path, line: String(line + 1) });
  return `debusine-desktop://${LOG_LINK_HOST}/${String(artifactId)}?${query.toString()}`;
}
