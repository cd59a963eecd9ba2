/**
 * `electron-vite dev` only: the page's Content Security Policy (its meta tag) allows the
 * inline scripts the dev server writes into it, by their SHA-256. The React plugin adds an
 * inline script (Fast Refresh's preamble) that `script-src 'self'` blocks, and the page
 * would stay blank. A build has no inline script and keeps the policy as written.
 */
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;

export function devInlineScriptHashes(): Plugin {
  return {
    name: 'debusine-dev-inline-script-hashes',
    apply: 'serve',
    transformIndexHtml: {
      // After the other plugins: the preamble is theirs.
      order: 'post',
      handler(html) {
        const hashes = [...html.matchAll(INLINE_SCRIPT)]
          .filter(([, attributes = '', body = '']) => !/\bsrc=/.test(attributes) && body !== '')
          .map(([, , body = '']) => {
            const digest = createHash('sha256').update(body).digest('base64');
            return `'sha256-${digest}'`;
          });
        if (hashes.length === 0) return html;
        return html.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`);
      },
    },
  };
}
