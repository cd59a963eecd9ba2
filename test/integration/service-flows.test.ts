/**
 * The service through the in-memory bridge, against the real current sandbox: sign-in,
 * servers, presets, a real source package detected and uploaded with progress, downloaded
 * back through the web host's route, a work request watched to its completion, paging.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeClient } from '../../src/shared/contract';
import { startWebHost, type WebHost } from '../../src/main/web/host';
import { createDispatcher } from '../../src/main/bridge/dispatch';
import { debianFixtures, missingDebianTools } from '../support/debian-fixtures';
import { httpRequest } from '../support/loopback-http';
import { hasServer, testServer } from '../support/sandbox';
import { serviceBridge, type ServiceBridge } from '../support/service-bridge';

describe.runIf(hasServer('current'))('the service against the current sandbox', () => {
  const server = testServer('current');
  let s: ServiceBridge;
  let made: ServiceBridge['made'];
  let api: BridgeClient;
  let waitEvent: ServiceBridge['waitEvent'];

  beforeAll(async () => {
    s = await serviceBridge({}, [
      'session.changed',
      'servers.changed',
      'connection.state',
      'workRequest.completed',
      'notification.shown',
      'upload.progress',
      'upload.finished',
    ]);
    ({ made, api, waitEvent } = s);
  });
  afterAll(async () => {
    await s.close();
  });

  it('adds a server, signs in with a token (checked with whoami), and never returns it', async () => {
    const profile = await api.servers.add({
      name: 'Sandbox',
      apiUrl: server.apiUrl,
      scope: server.scope,
      defaultWorkspace: server.workspaces.default,
    });
    expect(profile).toMatchObject({ id: 'sandbox', hasToken: false, active: true });
    await expect(
      api.session.signInWithToken({ serverId: 'sandbox', token: 'not-a-valid-token-at-all' }),
    ).rejects.toMatchObject({ code: 'auth' });
    const info = await api.session.signInWithToken({
      serverId: 'sandbox',
      token: server.users.owner.token,
    });
    expect(info).toMatchObject({ authenticated: true, user: server.users.owner.username });
    const list = await api.servers.list();
    expect(JSON.stringify(list)).not.toContain(server.users.owner.token);
    expect(list[0]).toMatchObject({ hasToken: true, active: true });
    await waitEvent('connection.state', (s) => s.status === 'connected', 30_000);
    await expect(api.connection.get()).resolves.toMatchObject({
      serverId: 'sandbox',
      status: 'connected',
    });
    await expect(api.servers.tokenStore()).resolves.toMatchObject({ kind: 'file' });
  });

  it('adds, checks, switches to and removes a second server', async () => {
    const other = await api.servers.add({
      name: 'Unreachable',
      apiUrl: 'http://127.0.0.1:9/api',
      scope: 'debusine',
      defaultWorkspace: null,
    });
    await expect(api.servers.check({ id: other.id })).resolves.toMatchObject({
      reachable: false,
      authenticated: false,
    });
    await api.servers.setActive({ id: other.id });
    await waitEvent('connection.state', (s) => s.serverId === other.id);
    await api.servers.remove({ id: other.id });
    expect((await api.servers.active())?.id).toBe('sandbox');
    await waitEvent(
      'connection.state',
      (s) => s.serverId === 'sandbox' && s.status === 'connected',
    );
  });

  it('offers presets without tokens', async () => {
    const presets = await api.servers.presets();
    expect(presets.map((p) => p.source)).toContain('public');
    expect(JSON.stringify(presets)).not.toContain(server.users.owner.token);
  });

  it.skipIf(missingDebianTools() !== undefined)(
    'detects and uploads a real source package, then downloads a file back through the web host',
    { timeout: 120_000 },
    async () => {
      const fx = debianFixtures();
      const staged = [];
      for (const path of [fx.dsc, fx.sourceTarball]) staged.push(await made.files.add(path));
      const [draft] = await api.localArtifacts.detect({ fileIds: staged.map((s) => s.id) });
      expect(draft).toMatchObject({
        kind: 'sourcePackage',
        category: 'debian:source-package',
        ready: true,
      });
      expect(draft?.files.map((f) => f.pathInArtifact).sort()).toHaveLength(2);
      const job = await api.uploads.start({
        draftId: draft?.draftId ?? '',
        workspace: server.workspaces.default,
      });
      const done = await waitEvent('upload.finished', (j) => j.jobId === job.jobId);
      expect(done).toMatchObject({ state: 'completed' });
      expect(done.sentBytes).toBe(done.totalBytes);
      expect((await api.uploads.list()).map((j) => j.jobId)).toContain(job.jobId);
      const artifactId = done.artifactId ?? 0;

      // The web host's download route: the browser follows the link as a plain navigation,
      // which carries no key, so the link's unguessable one-time token is all it needs.
      const root = await mkdtemp(join(tmpdir(), 'service-it-root-'));
      await writeFile(join(root, 'index.html'), '<!doctype html>');
      const host: WebHost = await startWebHost({
        root,
        dispatch: createDispatcher(made.handlers),
        hub: made.hub,
        files: made.files,
        downloads: made.service.downloads,
      });
      try {
        const link = await api.downloads.link({
          server: 'sandbox',
          artifactId,
          path: basename(fx.dsc),
        });
        expect(link.url).not.toContain(new URL(host.url).hash.slice('#key='.length));
        const get = (path: string) => httpRequest(`${host.origin}${path}`);
        // A token nobody handed out gets nothing.
        expect((await get(`/download/${'A'.repeat(32)}`)).status).toBe(404);
        const got = await get(link.url);
        expect(got.status).toBe(200);
        expect(got.body).toContain('Format: 3.0');
        expect((await get(link.url)).status).toBe(404); // one-time
      } finally {
        await host.close();
        await rm(root, { recursive: true, force: true });
      }
    },
  );

  it(
    'watches a work request it creates, to workRequest.completed and a notification',
    { timeout: 120_000 },
    async () => {
      const wr = await api.workRequests.create({
        task_name: 'noop',
        task_data: {},
        event_reactions: {},
      });
      expect((await api.watch.list()).map((w) => w.workRequestId)).toContain(wr.id);
      const completed = await waitEvent(
        'workRequest.completed',
        (e) => e.workRequestId === wr.id,
        90_000,
      );
      expect(completed.result).toBe('success');
      await waitEvent('notification.shown', (n) => n.workRequestId === wr.id, 30_000);
      const recent = await api.notifications.recent();
      expect(recent[0]).toMatchObject({ workRequestId: wr.id, result: 'success', rootId: null });
    },
  );

  it('pages through work requests with opaque cursors', async () => {
    // Servers page work requests 10 at a time: 11 make a second page even on a new server.
    for (let i = 0; i < 11; i++) {
      await api.workRequests.create({ task_name: 'noop', task_data: {}, event_reactions: {} });
    }
    const first = await api.workRequests.page({});
    expect(first.nextCursor).not.toBeNull();
    expect(first.nextCursor).not.toContain('http');
    const second = await api.workRequests.page({ cursor: first.nextCursor });
    expect(second.items.length).toBeGreaterThan(0);
    const ids = new Set(first.items.map((w) => w.id));
    expect(second.items.some((w) => ids.has(w.id))).toBe(false);
    await expect(api.workRequests.needsMe()).resolves.toBeInstanceOf(Array);
  });

  it('reaches collections, templates and workspace inheritance', async () => {
    const collections = await api.collections.list({ workspace: server.workspaces.default });
    expect(collections.length).toBeGreaterThan(0);
    const name = `svc-it-${String(Date.now())}`;
    const template = await api.workflowTemplates.create({
      workspace: server.workspaces.default,
      template: { name, task_name: 'noop', static_parameters: {} },
    });
    expect(template).toMatchObject({ name, task_name: 'noop', task_data: {} });
    const listed = await api.workflowTemplates.list({ workspace: server.workspaces.default });
    expect(listed.map((t) => t.name)).toContain(name);
    await api.workflowTemplates.delete({ workspace: server.workspaces.default, template: name });
    const chain = await api.workspaces.getInheritance({ workspace: server.workspaces.default });
    expect(Array.isArray(chain.chain)).toBe(true);
  });

  it('signs out: the token is gone and the watcher stops', async () => {
    await api.session.signOut({ serverId: 'sandbox' });
    await waitEvent('connection.state', (s) => s.status === 'signed-out');
    expect((await api.servers.list())[0]).toMatchObject({ hasToken: false });
  });
});
