/** Reads an artifact id from "42" or "#42": an id of the active server's artifacts. */
export function artifactIdFrom(text: string): number | null {
  const digits = /^#?(\d{1,12})$/.exec(text.trim())?.[1];
  if (digits === undefined) return null;
  const id = Number(digits);
  return id > 0 ? id : null;
}

/**
 * Whether the text is an address (a Debusine web page, or one of the app's own links):
 * it names its server, so main opens it there (links.open), not on the active server.
 */
export function isAddress(text: string): boolean {
  return /^(https?|debusine-desktop):/i.test(text.trim());
}
