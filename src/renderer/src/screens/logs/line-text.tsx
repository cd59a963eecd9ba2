/**
 * One line of a log as React text. Main has already made controls visible and removed
 * terminal escapes, but the text is still the server's: it is only ever a text node, and
 * the one thing made clickable is a web address that parses as http or https, opened
 * through app.openExternal, which checks the scheme again: by the system browser through
 * main, or in a new tab where the app runs in a browser.
 */
import { Fragment } from 'react';
import { webAddress } from '@shared/web-address';

export type LinePart = { kind: 'text'; text: string } | { kind: 'link'; text: string; url: string };

/** Candidates: what looks like the start of a web address up to a space or a quote. */
const CANDIDATE = /\bhttps?:\/\/[^\s"'<>`]+/gi;

/** Punctuation that ends a sentence rather than an address ("see https://x/y."). */
const TRAILING = /[.,;:!?)\]}]+$/;

/** The address as a link target, or null when it is not a valid http(s) URL. */
export function safeWebUrl(text: string): string | null {
  return webAddress(text)?.href ?? null;
}

/** Splits a line into plain text and http(s) links. */
export function splitLinks(line: string): LinePart[] {
  const parts: LinePart[] = [];
  let at = 0;
  for (const match of line.matchAll(CANDIDATE)) {
    const start = match.index;
    const raw = match[0].replace(TRAILING, '');
    const url = safeWebUrl(raw);
    if (url === null) continue;
    if (start > at) parts.push({ kind: 'text', text: line.slice(at, start) });
    parts.push({ kind: 'link', text: raw, url });
    at = start + raw.length;
  }
  if (at < line.length) parts.push({ kind: 'text', text: line.slice(at) });
  return parts;
}

export function LineText(props: {
  text: string;
  onOpenUrl: (url: string) => void;
}): React.JSX.Element {
  return (
    <>
      {splitLinks(props.text).map((part, i) =>
        part.kind === 'text' ? (
          <Fragment key={i}>{part.text}</Fragment>
        ) : (
          <a
            key={i}
            href={part.url}
            className="log-link"
            rel="noreferrer noopener"
            onClick={(event) => {
              // Never let the app's own page navigate away: app.openExternal opens it elsewhere.
              event.preventDefault();
              props.onOpenUrl(part.url);
            }}
          >
            {part.text}
          </a>
        ),
      )}
    </>
  );
}
