/**
 * The app:// scheme the window's page is served from: only files inside the renderer's
 * build, whatever the URL says, each with its type and the window's Content Security Policy
 * as a header (which a file:// page could not have).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mockedElectronModule } from '../support/fake-electron';

vi.mock('electron', () => mockedElectronModule());

const { APP_INDEX_URL, APP_SCHEME_PRIVILEGES, appResponse } =
  await import('../../src/main/app/app-protocol');
const { WINDOW_CSP } = await import('../../src/main/app/window');

// Made before the cases are listed: their URLs name it.
const top = mkdtempSync(join(tmpdir(), 'app-protocol-'));
const root = join(top, 'renderer');

beforeAll(async () => {
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title>');
  await writeFile(join(root, 'assets', 'index-1.js'), 'console.log(1)');
  await writeFile(join(root, 'assets', 'index-1.css'), 'body{}');
  await writeFile(join(root, 'assets', 'blob.bin'), 'x');
  // What lies beside the build, and links from inside it to there.
  await writeFile(join(top, 'secret.txt'), 'secret');
  await symlink(join(top, 'secret.txt'), join(root, 'assets', 'link-out.js'));
  await symlink(top, join(root, 'parent'));
  await symlink(join(root, 'assets', 'index-1.js'), join(root, 'assets', 'link-in.js'));
});

afterAll(async () => {
  await rm(top, { recursive: true, force: true });
});

const get = (url: string, method = 'GET') => appResponse(root, { url, method });

describe('a request that would leave the renderer’s build', () => {
  it.each([
    'app://renderer/../secret.txt',
    'app://renderer/assets/../../secret.txt',
    'app://renderer/%2e%2e/secret.txt',
    'app://renderer/%2E%2E%2Fsecret.txt',
    'app://renderer/assets%2F..%2F..%2Fsecret.txt',
    'app://renderer/..%5Csecret.txt',
    `app://renderer/${encodeURIComponent(join(top, 'secret.txt'))}`,
    `app://renderer/${join(top, 'secret.txt')}`,
    `app://renderer//${join(top, 'secret.txt')}`,
    'app://renderer/assets/link-out.js',
    'app://renderer/parent/secret.txt',
    'app://renderer/index.html%00.js',
  ])('gets nothing of what lies outside: %s', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('secret');
  });

  it('gets nothing from another host of the scheme, or another scheme', async () => {
    expect((await get('app://other/index.html')).status).toBe(404);
    expect((await get('file:///index.html')).status).toBe(404);
    expect((await get('not a url')).status).toBe(404);
  });
});

describe('a file of the build', () => {
  it('is served with its type and the window’s policy as a header', async () => {
    const page = await get(APP_INDEX_URL);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe('<!doctype html><title>app</title>');
    expect(page.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('Content-Security-Policy')).toBe(WINDOW_CSP);
    expect(page.headers.get('X-Content-Type-Options')).toBe('nosniff');
    const script = await get('app://renderer/assets/index-1.js');
    expect(script.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('Content-Security-Policy')).toBe(WINDOW_CSP);
    const style = await get('app://renderer/assets/index-1.css?v=1#x');
    expect(style.headers.get('Content-Type')).toBe('text/css; charset=utf-8');
    expect((await get('app://renderer/assets/blob.bin')).headers.get('Content-Type')).toBe(
      'application/octet-stream',
    );
  });

  it('is served through a link that stays inside the build', async () => {
    const linked = await get('app://renderer/assets/link-in.js');
    expect(linked.status).toBe(200);
    expect(await linked.text()).toBe('console.log(1)');
  });

  it('is not there for a folder, a missing file, or a method that is not a read', async () => {
    expect((await get('app://renderer/')).status).toBe(404);
    expect((await get('app://renderer/assets')).status).toBe(404);
    expect((await get('app://renderer/missing.js')).status).toBe(404);
    const post = await get(APP_INDEX_URL, 'POST');
    expect(post.status).toBe(405);
    const head = await get(APP_INDEX_URL, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('a build that is not there', () => {
  it('serves nothing, and does not fail', async () => {
    const response = await appResponse(join(top, 'never-built'), {
      url: APP_INDEX_URL,
      method: 'GET',
    });
    expect(response.status).toBe(404);
  });
});

describe('the scheme', () => {
  it('is standard and secure, and bypasses nothing', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      scheme: 'app',
      privileges: { standard: true, secure: true },
    });
    expect(APP_INDEX_URL).toBe('app://renderer/index.html');
  });
});

/** A policy as its directives, each with its sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe('the page’s own policy (its meta tag)', () => {
  it('is the header’s, but for the web host’s socket and what a tag cannot say', () => {
    const html = readFileSync(new URL('../../src/renderer/index.html', import.meta.url), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1] ?? '';
    const tag = directives(meta);
    const header = directives(WINDOW_CSP);
    expect(tag.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:*']);
    tag.set('connect-src', ["'self'"]);
    // A tag cannot carry frame-ancestors: browsers ignore it there.
    header.delete('frame-ancestors');
    expect(tag).toEqual(header);
  });
});
