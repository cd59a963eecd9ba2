/**
 * Waking from sleep: the completion socket may look open while the server dropped it (a
 * half-open connection), so on powerMonitor's `resume` the watcher connects again at once
 * and the router catches up on what completed meanwhile. A local WebSocket server stands
 * in for Debusine's (its messages as the real one sends them; docs/debusine-server-facts.md)
 * and the fake `electron` (test/support/fake-electron.ts) sends `resume`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkRequestResponse } from '../../src/shared/models';
import { CompletionWatcher } from '../../src/main/watch/completion-watcher';
import { watchedOverSocket } from '../support/completion-router';
import { webSocketsOnLoopback, type LoopbackWebSockets } from '../support/loopback-http';
import { createFakeElectron, mockedElectron } from '../support/fake-electron';

const fake = mockedElectron;
vi.mock('electron', async () => (await import('../support/fake-electron')).mockedElectronModule());

const { reconnectOnResume } = await import('../../src/main/app/resume');

const WATCHED = 7;

describe('waking from sleep', () => {
  let server: LoopbackWebSockets | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    vi.restoreAllMocks();
  });

  it('reconnects the watcher at once, and the router reads what completed meanwhile', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    server = await webSocketsOnLoopback();
    // Each connection the server saw: where it resumes from, and whether it is closed.
    const connections: { since: string | null; closed: boolean }[] = [];
    server.wss.on('connection', (socket, request) => {
      const seen = {
        since: new URL(request.url ?? '/', 'http://x').searchParams.get('completed_at_since'),
        closed: false,
      };
      connections.push(seen);
      socket.on('close', () => {
        seen.closed = true;
      });
      // Then silent: what completes while the computer sleeps is never sent on this socket.
      socket.send(JSON.stringify({ type: 'websocket.send', text: 'connected' }));
    });
    dir = await mkdtemp(join(tmpdir(), 'watch-resume-'));
    const state = { watchedStatus: 'running' };
    const reads: number[][] = [];
    const workRequest = (id: number): WorkRequestResponse =>
      ({
        id,
        task_name: 'noop',
        task_type: 'Worker',
        workspace: 'System',
        status: state.watchedStatus,
        result: state.watchedStatus === 'completed' ? 'success' : '',
        completed_at: state.watchedStatus === 'completed' ? new Date().toISOString() : null,
        workflow_root: null,
        created_by: 1,
      }) as WorkRequestResponse;
    const source = {
      workRequestGet: (id: number) => Promise.resolve(workRequest(id)),
      async *workRequestIter(filters: { ids?: readonly number[] } = {}) {
        reads.push([...(filters.ids ?? [])]);
        await Promise.resolve();
        for (const id of filters.ids ?? []) yield workRequest(id);
      },
    };
    const { router, watcher, notifier } = await watchedOverSocket({
      dir,
      apiUrl: server.apiUrl,
      client: source,
      watched: WATCHED,
    });
    const e = createFakeElectron({ userData: dir });
    fake.current = e;
    e.ready();
    reconnectOnResume(() => {
      watcher.reconnect();
    });
    try {
      await watcher.start();
      await watcher.whenConnected();
      // The catch-up of the first connection: the watched one still runs.
      await expect.poll(() => reads.length).toBe(1);
      expect(notifier.shown).toEqual([]);

      // It completes while the computer sleeps; the socket says nothing.
      state.watchedStatus = 'completed';
      e.sleepAndWake();
      // A new socket at once (not after the heartbeat), resuming where the watcher was…
      await expect.poll(() => connections.length).toBe(2);
      expect(connections[1]?.since).toBe(watcher.resumePoint?.lastCompletedAt);
      expect(connections[0]?.since).toBeNull();
      await expect.poll(() => connections[0]?.closed).toBe(true);
      await watcher.whenConnected();
      // …and the catch-up once connected finds it completed, and tells the user.
      await expect.poll(() => reads.length).toBe(2);
      expect(reads[1]).toEqual([WATCHED]);
      await expect.poll(() => notifier.shown.length).toBe(1);
      expect(notifier.shown[0]?.notification.workRequestId).toBe(WATCHED);
    } finally {
      await watcher.stop();
      await router.close();
    }
  });

  it('does nothing while the watcher is stopped', async () => {
    const watcher = new CompletionWatcher({
      apiUrl: 'http://127.0.0.1:9/api',
      getToken: () => 'token',
    });
    watcher.reconnect();
    expect(watcher.state).toEqual({ state: 'idle' });
    await watcher.stop();
  });
});
