/**
 * A URL as an error message may quote it. A URL may carry a user name and password
 * (`http://user:secret@host/`), and a message is shown on screen, copied, and written to
 * logs: so its userinfo never appears, whoever wrote the URL (a server's redirect, a file
 * list, the user). Every URL put in an error message goes through here.
 */

/** Longest URL quoted: enough to recognise it, not a server's whole payload. */
const URL_MAX = 200;

/**
 * `url` without its user name and password, at most URL_MAX characters. A string that is no
 * URL loses whatever stands between `//` and an `@` as well: it may still be read as one.
 */
export function urlText(url: string): string {
  let text: string;
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    text = parsed.href;
  } catch {
    text = url.replace(/\/\/[^/?#]*@/g, '//');
  }
  return text.length > URL_MAX ? `${text.slice(0, URL_MAX - 1)}…` : text;
}
