import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/main/bridge/dispatch';
import { EventHub } from '../../src/main/bridge/event-outbox';
import { StagedFiles } from '../../src/main/service/staged-files';
import { startWebHost, type WebHost } from '../../src/main/web/host';
import { httpRequest } from '../support/loopback-http';

function get(host: WebHost, path: string): Promise<{ status: number; body: string }> {
  return httpRequest(`${host.origin}${path}`).then(({ status, body }) => ({ status, body }));
}

describe('the web host’s static files', () => {
  let host: WebHost;
  let root: string;
  let outside: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'web-host-static-'));
    outside = await mkdtemp(join(tmpdir(), 'web-host-outside-'));
    await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title>');
    await writeFile(join(root, 'app.js'), 'console.log("app");');
    await writeFile(join(outside, 'secret.txt'), 'the secret outside the build');
    // Links inside the build folder: out of it (a file, a directory), and within it.
    await symlink(join(outside, 'secret.txt'), join(root, 'leak.txt'));
    await symlink(outside, join(root, 'assets'));
    await symlink(join(root, 'app.js'), join(root, 'alias.js'));
    host = await startWebHost({
      root,
      dispatch: createDispatcher({} as never),
      hub: new EventHub(),
      files: new StagedFiles(),
    });
  });
  afterAll(async () => {
    await host.close();
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('does not follow links out of the build folder', async () => {
    for (const path of ['/leak.txt', '/assets/secret.txt', '/assets/../leak.txt']) {
      const answer = await get(host, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).not.toContain('the secret outside the build');
    }
  });

  it('serves its files, links within it, and the app for its own routes', async () => {
    await expect(get(host, '/app.js')).resolves.toEqual({
      status: 200,
      body: 'console.log("app");',
    });
    await expect(get(host, '/alias.js')).resolves.toMatchObject({ status: 200 });
    await expect(get(host, '/work-requests/12')).resolves.toEqual({
      status: 200,
      body: '<!doctype html><title>app</title>',
    });
    await expect(get(host, '/%2e%2e/%2e%2e/etc/passwd')).resolves.not.toMatchObject({
      body: expect.stringContaining('root:') as string,
    });
  });
});
