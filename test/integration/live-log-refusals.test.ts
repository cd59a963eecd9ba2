/**
 * Where a real server will not stream a live log, the app says why in one line and tries
 * no more: a step of a private workspace (the server streams to the app, which holds no
 * web session, only what an anonymous visitor may see), a work request that does not exist
 * (told exactly as a private one, by the server's design), one that has ended (the stream
 * ends, for the viewer to show the stored log), and a 0.11 server, which has no such
 * websocket at all.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveLogStore } from '../../src/main/logs/live-log-store';
import type { LogState } from '../../src/shared/log-types';
import { clientFor, ownerClient, waitForCompletion } from '../support/clients';
import { hasServer, testServer } from '../support/sandbox';

let store: LiveLogStore | undefined;
afterEach(async () => {
  await store?.closeAll();
});

async function followTo(apiUrl: string, workRequestId: number): Promise<LogState> {
  store = new LiveLogStore({ dir: join(mkdtempSync(join(tmpdir(), 'ddt-live-')), 'live') });
  const opened = await store.open({
    apiUrl,
    workRequestId,
    sbuild: false,
    // A reconnect would be the bug here: each of these must end on the first answer.
    stillRunning: () => Promise.reject(new Error('asked whether it still runs')),
  });
  return store.ended(opened.handle, apiUrl);
}

const current = hasServer('current') ? testServer('current') : null;
const second = current?.workspaces.second;

describe.runIf(current !== null)('live logs the current server refuses', () => {
  it.runIf(current?.sandbox === true && second !== undefined)(
    'a step of a private workspace',
    async () => {
      if (!current || second === undefined) return;
      const client = clientFor(current);
      const noop = await client.workRequestCreate({
        task_name: 'noop',
        workspace: second,
        task_data: {},
        event_reactions: {},
      });
      const state = await followTo(current.apiUrl, noop.id);
      expect(state.live).toMatchObject({
        status: 'refused',
        message:
          'The server streams live logs only of public workspaces to the app; this one is not.',
      });
      await client.close();
    },
  );

  it('a work request that does not exist reads as a private one', async () => {
    if (!current) return;
    const state = await followTo(current.apiUrl, 2_000_000_000);
    expect(state.live?.status).toBe('refused');
  });

  it('a work request that has ended ends its live log', async () => {
    if (!current) return;
    const client = ownerClient('current');
    const noop = await client.workRequestCreate({
      task_name: 'noop',
      task_data: {},
      event_reactions: {},
    });
    await waitForCompletion(client, noop.id);
    const state = await followTo(current.apiUrl, noop.id);
    expect(state.live).toMatchObject({ status: 'ended', message: null });
    await client.close();
  });
});

describe.runIf(hasServer('earlier'))('a 0.11 server', () => {
  it('has no live log, and says so', async () => {
    const state = await followTo(testServer('earlier').apiUrl, 1);
    expect(state.live).toMatchObject({
      status: 'refused',
      message: 'This server has no live log (it needs Debusine 0.16 or later).',
    });
  });
});
