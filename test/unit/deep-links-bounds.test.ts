/**
 * A deep link comes from anything that can open a URL on the desktop, so its size is the
 * sender's choice. A link nested in itself thousands of times
 * (`debusine-desktop://open?url=debusine-desktop://open?url=…`) used to be parsed once per
 * level, each time over the rest of the text: quadratic, seconds of main's time. It is
 * refused now by its length before any parsing, and nesting stops after one `open`, so the
 * work done on any link is a few parses of at most the length bound.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEEP_LINK_MAX_LENGTH,
  deepLinkFromArgv,
  parseDeepLink,
  readDeepLink,
} from '../../src/main/service/deep-links';
import { logLink } from '../../src/shared/log-link';

const INNER = 'debusine-desktop://work-request/5';

/** `INNER` wrapped in `depth` open links, as they nest when nothing is encoded. */
function nested(depth: number, encode = false): string {
  let link = INNER;
  for (let i = 0; i < depth; i++) {
    link = `debusine-desktop://open?url=${encode ? encodeURIComponent(link) : link}`;
  }
  return link;
}

/** How many URLs are parsed while `run` runs (every parse of a link goes through one). */
function countParses<T>(run: () => T): { result: T; parses: number } {
  const spy = vi.spyOn(URL.prototype, 'searchParams', 'get');
  const result = run();
  const parses = spy.mock.calls.length;
  spy.mockRestore();
  return { result, parses };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a deep link’s size', () => {
  it('refuses a link nested 4,000 times by its length, before parsing any of it', () => {
    const link = nested(4000);
    expect(link.length).toBeGreaterThan(100_000);
    const { result, parses } = countParses(() => readDeepLink(link));
    expect(result).toEqual({
      ok: false,
      reason: `The link is ${link.length.toLocaleString('en')} characters long; a Debusine Desktop link is at most ${DEEP_LINK_MAX_LENGTH.toLocaleString('en')}.`,
    });
    expect(parses).toBe(0);
    expect(parseDeepLink(link)).toBeNull();
    // On the command line, among Electron's own arguments, it is refused and said to be.
    const reasons: string[] = [];
    expect(deepLinkFromArgv(['--no-sandbox', '.', link], (r) => reasons.push(r))).toBeNull();
    expect(reasons).toEqual([result.ok ? '' : result.reason]);
  });

  it('refuses an open link inside an open link, however deep, after two parses at most', () => {
    for (const encode of [false, true]) {
      // As deep as the length bound allows: the nesting is refused at its second level.
      let depth = 2;
      while (nested(depth + 1, encode).length <= DEEP_LINK_MAX_LENGTH) depth++;
      for (const d of [2, 3, depth]) {
        const link = nested(d, encode);
        expect(link.length).toBeLessThanOrEqual(DEEP_LINK_MAX_LENGTH);
        const { result, parses } = countParses(() => readDeepLink(link));
        expect(result, `${String(d)} deep`).toEqual({
          ok: false,
          reason: 'The link wraps an open link in an open link; an open link carries one address.',
        });
        expect(parses, `${String(d)} deep`).toBeLessThanOrEqual(2);
      }
    }
  });

  it('still opens one open link, and what the app writes at the length it allows', () => {
    expect(parseDeepLink(nested(1))).toEqual({
      target: { kind: 'work-request', id: 5 },
      server: null,
    });
    expect(parseDeepLink(nested(1, true))).toMatchObject({ target: { id: 5 } });
    // The longest path an artifact may hold (1024 bytes), every byte of it encoded.
    const path = `${`${'é'.repeat(127)}/`.repeat(4)}éé`;
    expect(Buffer.byteLength(path)).toBe(1024);
    const link = logLink({
      server: `https://${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.example:65535`,
      artifactId: 999_999_999_999_999,
      path,
      line: 999_999_999 - 1,
    });
    expect(link.length).toBeLessThanOrEqual(DEEP_LINK_MAX_LENGTH);
    expect(parseDeepLink(link)).toMatchObject({ target: { kind: 'log', path } });
  });

  it('says why an address is not a link of the app', () => {
    expect(readDeepLink('not a url')).toEqual({
      ok: false,
      reason: 'The link is not a Debusine address of a work request, an artifact or a file.',
    });
  });
});
