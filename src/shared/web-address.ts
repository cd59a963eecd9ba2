/**
 * A web address from text someone else wrote (a log line, a pasted or deep-linked address,
 * a server's setting): only http and https, with a host. Anything else is not one: a
 * `javascript:` address would run in the app's page, a `file:` one read the user's files.
 */
export function webAddress(text: string): URL | null {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  return url.hostname === '' ? null : url;
}
