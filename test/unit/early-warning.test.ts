/**
 * Early warnings of failing builds: which lines count (only those after which the build
 * cannot succeed), and that a watched workflow's running sbuild step, followed through a
 * local stand-in for the live log websocket, notifies once, with the line where the build
 * broke and its buttons, and a build that only looks bad on the way notifies nothing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { LiveLogStore } from '../../src/main/logs/live-log-store';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import { EarlyWarnings } from '../../src/main/watch/early-warning';
import { marksBuildFailing } from '../../src/main/watch/failing-line';
import { WatchList } from '../../src/main/watch/watch-list';
import type { WorkRequestResponse } from '../../src/shared/models';
import { webSocketsOnLoopback, type LoopbackWebSockets } from '../support/loopback-http';

describe('the lines that mark a build as failing', () => {
  it.each([
    ['make: *** [debian/rules:7: build] Error 1', true],
    ["make: *** No rule to make target 'build'.  Stop.", true],
    ['dpkg-buildpackage: error: debian/rules build subprocess returned exit status 2', true],
    ['E: Build failure (dpkg-buildpackage died with exit 2)', true],
    // A sub-make's failure can be ignored or retried by the make above it.
    ['make[1]: *** [Makefile:12: check] Error 1', false],
    ['make[2]: *** Waiting for unfinished jobs....', false],
    ['make: [debian/rules:9: override_dh_auto_test] Error 1 (ignored)', false],
    ['make: *** [debian/rules:9: test] Error 1 (ignored)', false],
    ['dh_auto_test: error: make -j4 check returned exit code 2', false],
    ['foo.c:3:1: error: expected ‘;’ before ‘}’ token', false],
    ['  make: *** indented, quoted by a test', false],
    ['I: make: *** not at the start', false],
  ])('%s → %s', (line, counts) => {
    expect(marksBuildFailing(line)).toBe(counts);
  });
});

let server: LoopbackWebSockets | undefined;
let warnings: EarlyWarnings | undefined;
let store: LiveLogStore | undefined;
afterEach(async () => {
  await warnings?.close();
  await store?.closeAll();
  await server?.close();
  server = undefined;
});

const step = (id: number, root: number): WorkRequestResponse =>
  ({
    id,
    task_type: 'Worker',
    task_name: 'sbuild',
    status: 'running',
    result: '',
    workspace: 'System',
    workflow_root: root,
  }) as WorkRequestResponse;

async function liveServer(lines: (id: number) => string[]): Promise<string> {
  server = await webSocketsOnLoopback();
  let at = Date.UTC(2026, 0, 1);
  server.wss.on('connection', (socket: WebSocket, request) => {
    const id = Number(/work-request\/(\d+)\//.exec(request.url ?? '')?.[1]);
    socket.send(JSON.stringify({ type: 'connected' }));
    for (const text of lines(id)) {
      socket.send(
        JSON.stringify({
          type: 'log_data',
          data: `${text}\n`,
          stream: 'stdout',
          timestamp: new Date(at++).toISOString(),
        }),
      );
    }
    socket.send(JSON.stringify({ type: 'log_data_end', exit_code: 0, timestamp: 'x' }));
    socket.close();
  });
  return server.apiUrl;
}

const BOX = [
  'sbuild (Debian sbuild) 0.89.3 (11 November 2025) on host',
  '',
  '+==============================================================================+',
  '| hello 2.10-3 (amd64)                         Thu, 26 Nov 2026 10:00:00 +0000 |',
  '+==============================================================================+',
  '',
  '+------------------------------------------------------------------------------+',
  '| Build                                                                        |',
  '+------------------------------------------------------------------------------+',
];

describe('early warnings', () => {
  it('notifies once, with where the build broke, for a watched workflow’s failing build', async () => {
    const apiUrl = await liveServer((id) =>
      id === 31
        ? [
            ...BOX,
            'gcc -c hello.c',
            'make[1]: *** [Makefile:4: hello] Error 1',
            'make[1]: Leaving directory',
            'make: *** [debian/rules:4: build] Error 2',
            'dpkg-buildpackage: error: debian/rules build subprocess returned exit status 2',
          ]
        : // Looks bad on the way, and succeeds: a sub-make's ignored failure.
          [
            ...BOX,
            'make[1]: *** [Makefile:9: check] Error 1',
            'make: [debian/rules:6: override_dh_auto_test] Error 2 (ignored)',
            'dh_auto_test: error: make -j1 check returned exit code 2',
            'Status: successful',
          ],
    );
    const list = new WatchList(join(mkdtempSync(join(tmpdir(), 'ddt-early-')), 'watch.json'));
    await list.load();
    await list.add(30, 'user');
    await list.add(40, 'user');
    store = new LiveLogStore({
      dir: join(mkdtempSync(join(tmpdir(), 'ddt-early-')), 'live'),
      reconnectDelayMs: () => 0,
    });
    const notifier = new RecordingNotifier(true);
    const opened: { id: number; line: number }[] = [];
    const aborted: number[] = [];
    let checks = 0;
    warnings = new EarlyWarnings({
      apiUrl,
      client: {
        // Another user's running build of an unwatched workflow is never followed.
        workRequestIter: async function* () {
          checks++;
          await Promise.resolve();
          yield step(31, 30);
          yield step(41, 40);
          yield step(51, 50);
        },
        workRequestGet: (id: number) => Promise.resolve({ ...step(id, 0), status: 'completed' }),
      },
      watchList: list,
      live: store,
      notifier,
      pollMs: 3_600_000,
      handlersFor: (id, line) => ({
        onClick: () => opened.push({ id, line }),
        onAction: (action) => {
          if (action === 'abort') aborted.push(id);
          else opened.push({ id, line });
        },
      }),
      onError: (error) => {
        throw error;
      },
    });
    warnings.start();
    const shown = await notifier.waitFor((n) => n.workRequestId === 31);
    expect(shown.notification).toMatchObject({
      title: 'sbuild hello 2.10-3 amd64 is failing',
      body: 'make[1]: *** [Makefile:4: hello] Error 1 (live log line 11)\nWorkspace System · still running',
      urgency: 'critical',
      // The app's list of notifications opens the live log there too.
      liveLine: 10,
      actions: [
        { id: 'open-log', label: 'Open log here' },
        { id: 'abort', label: 'Abort' },
      ],
    });
    shown.handlers.onAction('open-log');
    shown.handlers.onAction('abort');
    expect(opened).toEqual([{ id: 31, line: 10 }]);
    expect(aborted).toEqual([31]);
    // Both followed to their ends, and checked again: still one notification in all.
    await warnings.idle();
    await warnings.check();
    expect(checks).toBeGreaterThanOrEqual(2);
    expect(notifier.shown.map((r) => r.notification.workRequestId)).toEqual([31]);
  });
});
