/**
 * The log viewer's entries through the whole bridge (the renderer's client, JSON messages,
 * main's dispatcher and service) on a server profile seeded from the environment: the
 * renderer gets a handle and text, never a path, and follows the file by events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBridgeClient } from '../../src/shared/bridge-client';
import type { LogState } from '../../src/shared/log-types';
import { startFakeDebusine, type FakeDebusine } from '../support/fake-debusine';
import { memoryBridge, testService } from '../support/memory-bridge';

let fake: FakeDebusine;

/** The profile main seeded from the environment: the server the logs are on. */
function activeId(made: { service: { session: { active(): { id: string } | null } } }): string {
  return made.service.session.active()?.id ?? 'none';
}

beforeAll(async () => {
  fake = await startFakeDebusine();
});
afterAll(async () => {
  await fake.close();
});

describe('logs over the bridge', () => {
  it('opens, reads, searches and closes a log by its handle', async () => {
    const made = await testService({
      env: { DEBUSINE_DESKTOP_API_URL: fake.apiUrl, DEBUSINE_DESKTOP_TOKEN: 'a-test-token' },
    });
    const bridge = memoryBridge(made.handlers);
    made.hub.listen((m) => {
      bridge.hub.emit(m.event, m.payload);
    });
    try {
      await made.service.start();
      const text = Array.from({ length: 3000 }, (_, n) => `step ${String(n)}\n`).join('');
      fake.artifact(970, [{ path: 'stages.log', content: text }]);
      const client = createBridgeClient(bridge.api);
      const progress: LogState[] = [];
      client.on('logs.progress', (state) => progress.push(state));

      const opened = await client.logs.open({
        server: activeId(made),
        artifactId: 970,
        path: 'stages.log',
      });
      expect(opened).toMatchObject({ artifactId: 970, path: 'stages.log', size: text.length });
      expect(JSON.stringify(opened)).not.toContain(made.dataDir);
      await expect.poll(() => progress.at(-1)?.state).toBe('ready');
      expect(progress.at(-1)).toMatchObject({ handle: opened.handle, lines: 3000, analysis: null });
      await expect(client.logs.info({ handle: opened.handle })).resolves.toMatchObject({
        state: 'ready',
      });

      const window = await client.logs.lines({ handle: opened.handle, from: 2998, count: 10 });
      expect(window.lines).toEqual([
        { text: 'step 2998', cut: null },
        { text: 'step 2999', cut: null },
      ]);
      await expect(
        client.logs.search({ handle: opened.handle, query: 'step 12\\d\\d$', regex: true }),
      ).resolves.toMatchObject({ matches: 100, line: 1200 });
      await expect(
        client.logs.lines({ handle: opened.handle, from: 0, count: 5000 }),
      ).rejects.toMatchObject({ code: 'validation', details: { field: 'count' } });

      await client.logs.close({ handle: opened.handle });
      await expect(
        client.logs.lines({ handle: opened.handle, from: 0, count: 1 }),
      ).rejects.toMatchObject({ code: 'not-found' });
      // A path is not a handle: nothing on disk can be named through these entries.
      await expect(
        client.logs.lines({ handle: '/etc/passwd', from: 0, count: 1 }),
      ).rejects.toMatchObject({ code: 'not-found' });
    } finally {
      await bridge.close();
      await made.close();
    }
  });
});
