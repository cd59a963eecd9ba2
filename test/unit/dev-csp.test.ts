/**
 * `electron-vite dev` serves the renderer with the React plugin's inline preamble; the
 * page's own policy must allow it, or the page stays blank. The renderer's config is the
 * one electron.vite.config.ts gives, run in a Vite dev server.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createServer, type UserConfig } from 'vite';
import config from '../../electron.vite.config';

const indexHtml = new URL('../../src/renderer/index.html', import.meta.url);

function policyOf(html: string): string {
  const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html);
  if (!meta?.[1]) throw new Error('no policy in the page');
  return meta[1];
}

describe('the page’s policy in electron-vite dev', () => {
  it('allows each inline script the dev server adds, by its hash, and nothing more', async () => {
    const renderer = (config as { renderer: UserConfig }).renderer;
    const server = await createServer({
      configFile: false,
      root: renderer.root,
      resolve: renderer.resolve,
      plugins: renderer.plugins,
      logLevel: 'silent',
      appType: 'custom',
      server: { middlewareMode: true, hmr: { port: 0 }, ws: false },
    });
    try {
      const html = await server.transformIndexHtml('/index.html', readFileSync(indexHtml, 'utf8'));
      const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
        ([, attributes = '', body = '']) => !/\bsrc=/.test(attributes) && body !== '',
      );
      expect(inline.length).toBeGreaterThan(0);
      const scriptSrc = /script-src ([^;]*)/.exec(policyOf(html))?.[1]?.split(' ') ?? [];
      for (const [, , body = ''] of inline) {
        const hash = `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
        expect(scriptSrc).toContain(hash);
      }
      expect(scriptSrc.filter((s) => !s.startsWith("'sha256-"))).toEqual(["'self'"]);
    } finally {
      await server.close();
    }
  });

  it('is the page’s own everywhere else', () => {
    expect(policyOf(readFileSync(indexHtml, 'utf8'))).toContain("script-src 'self';");
  });
});
