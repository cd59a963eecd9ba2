/**
 * A step of a watched workflow that waits for the user (a `confirm` or `externaldebsign`
 * Wait step, or one the workflow marks `needs_input`) notifies once, ever: found by one
 * read of the running Wait steps after the workflow's other steps complete (never by
 * reading every work request), remembered across reconnections and restarts, and a click
 * on it opens the step in the app.
 *
 * The whole service runs, with a local WebSocket server in place of Debusine's completion
 * websocket and a client answering from a table whose list reads are counted, because the
 * number of reads and the timing are the point here.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventHub, type EventMessage } from '../../src/main/bridge/event-outbox';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import type { AppService } from '../../src/main/composition-root';
import type { WorkRequestResponse } from '../../src/shared/models';
import {
  completionSocket,
  tableClient,
  type CompletionSocket,
  type TableClient,
} from '../support/table-debusine';
import { runningPipelineFixture, workRequestFixture } from '../support/work-requests';
import { testCaller } from '../support/caller';
import { signedInService } from '../support/memory-bridge';
import { navigationsOf as navigations } from '../support/navigations';

/** The renderer these tests stand for: it holds what they open. */
const caller = testCaller();

const ROOT = 50;
const CHILD = 51;
const WAIT = 52;

/** The debian_pipeline workflow the user watches, from its template. */
function root(id = ROOT): WorkRequestResponse {
  return runningPipelineFixture(id, {
    workflow_data: { workflow_template_name: 'debian-pipeline-trixie' },
  });
}

function child(id: number, rootId = ROOT): WorkRequestResponse {
  return workRequestFixture(id, { task_name: 'sbuild', parent: rootId, workflow_root: rootId });
}

/** A Wait step of the workflow, as 0.16 makes it; pending until the test lets it wait. */
function waitStep(
  id: number,
  taskName: string,
  status: string,
  rootId = ROOT,
  workflowData: Record<string, unknown> = {
    display_name: 'Confirm',
    step: 'confirm',
    needs_input: true,
  },
): WorkRequestResponse {
  return workRequestFixture(id, {
    task_type: 'Wait',
    task_name: taskName,
    status,
    result: '',
    completed_at: null,
    parent: rootId,
    workflow_root: rootId,
    workflow_data: workflowData,
  });
}

interface Running {
  service: AppService;
  notifier: RecordingNotifier;
  events: EventMessage[];
  close(): Promise<void>;
}

interface World {
  dataDir: string;
  socket: CompletionSocket;
  table: Map<number, WorkRequestResponse>;
  api: TableClient;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function world(requests: WorkRequestResponse[]): Promise<World> {
  const dataDir = await mkdtemp(join(tmpdir(), 'needs-input-'));
  const socket = await completionSocket();
  const table = new Map(requests.map((wr) => [wr.id, wr]));
  cleanups.push(async () => {
    await socket.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { dataDir, socket, table, api: tableClient(socket.apiUrl, table) };
}

/** The service on the world's data directory, signed in and connected. */
async function start(w: World): Promise<Running> {
  const notifier = new RecordingNotifier(false);
  const hub = new EventHub();
  const events: EventMessage[] = [];
  hub.listen((m) => events.push(m));
  const service = signedInService(w.dataDir, w.socket.apiUrl, hub, {
    notifier,
    host: { transport: 'web', platform: 'linux' },
    createClient: () => w.api.open(),
  });
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await service.close();
  };
  cleanups.push(close);
  await service.start();
  await expect.poll(() => service.watch.connection.status, { timeout: 10_000 }).toBe('connected');
  return { service, notifier, events, close };
}

const sleep = (ms: number) =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/** Longer than the debounce of the check, with room for the reads. */
const SETTLE_MS = 800;

/** Watches the workflow, and waits for the check that watching it asks for. */
async function watchRoot(r: Running, w: World, id = ROOT): Promise<void> {
  const before = w.api.waitReads();
  await r.service.handlers['watch.add']({ workRequestId: id, label: null }, caller);
  await expect.poll(() => w.api.waitReads(), { timeout: 5_000 }).toBe(before + 1);
}

/** Lets the Wait step wait, and completes a sibling: the server's order of things. */
function reachWait(w: World, completedAt: string, step = waitStep(WAIT, 'confirm', 'running')) {
  w.table.set(step.id, step);
  w.socket.complete(CHILD, completedAt, 'success');
}

describe('a step of a watched workflow that waits for the user', { timeout: 60_000 }, () => {
  it('notifies once when a sibling completes, and a click opens the step', async () => {
    const w = await world([root(), child(CHILD), waitStep(WAIT, 'confirm', 'pending')]);
    const r = await start(w);
    await watchRoot(r, w);
    expect(r.notifier.shown).toHaveLength(0);

    reachWait(w, '2026-01-01T00:00:01Z');
    const shown = await r.notifier.waitFor((n) => n.workRequestId === WAIT, 10_000);
    expect(shown.notification).toMatchObject({
      title: `Workflow #${String(ROOT)} waits for your confirmation`,
      body: 'debian-pipeline-trixie in workspace System · step: Confirm',
      workRequestId: WAIT,
    });
    // Recorded like the other notifications, for the app's list.
    const recent = await r.service.handlers['notifications.recent'](undefined, caller);
    expect(recent[0]).toMatchObject({
      workRequestId: WAIT,
      rootId: ROOT,
      result: 'needs input',
      title: shown.notification.title,
    });
    // A click opens the step, not the workflow.
    shown.handlers.onClick();
    expect(navigations(r)).toEqual([{ kind: 'work-request', id: WAIT }]);

    // The same completion again, and others, do not show it again.
    w.socket.complete(CHILD, '2026-01-01T00:00:02Z', 'success');
    w.socket.complete(CHILD, '2026-01-01T00:00:03Z', 'success');
    await expect.poll(() => w.api.waitReads(), { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    await sleep(SETTLE_MS);
    expect(r.notifier.shown.filter((s) => s.notification.workRequestId === WAIT)).toHaveLength(1);
  });

  it('never notifies a waiting step of a workflow nobody watches', async () => {
    const other = 70;
    const w = await world([
      root(),
      child(CHILD),
      root(other),
      child(71, other),
      waitStep(72, 'confirm', 'running', other),
    ]);
    const r = await start(w);
    await watchRoot(r, w);
    // Its sibling completes: no read for an unwatched workflow, and nothing shown.
    w.socket.complete(71, '2026-01-01T00:00:01Z', 'success');
    await expect
      .poll(() => r.events.filter((m) => m.event === 'workRequest.completed').length)
      .toBe(1);
    await sleep(SETTLE_MS);
    expect(w.api.waitReads()).toBe(1);
    // A check for the watched workflow sees the other's waiting step, and leaves it.
    reachWait(w, '2026-01-01T00:00:02Z');
    await r.notifier.waitFor((n) => n.workRequestId === WAIT, 10_000);
    await sleep(SETTLE_MS);
    expect(r.notifier.shown.map((s) => s.notification.workRequestId)).toEqual([WAIT]);
  });

  it('notifies once only across a reconnection with its replay, and a restart', async () => {
    const w = await world([root(), child(CHILD), waitStep(WAIT, 'confirm', 'pending')]);
    const first = await start(w);
    await watchRoot(first, w);
    reachWait(w, '2026-01-01T00:00:01Z');
    await first.notifier.waitFor((n) => n.workRequestId === WAIT, 10_000);

    // The network drops; on reconnecting, the server replays the completion and the app
    // checks again after its catch-up.
    const reads = w.api.waitReads();
    w.socket.dropClients();
    await expect.poll(() => w.socket.connections, { timeout: 10_000 }).toBe(2);
    await expect.poll(() => first.service.watch.connection.status).toBe('connected');
    await expect.poll(() => w.api.waitReads(), { timeout: 5_000 }).toBeGreaterThan(reads);
    await sleep(SETTLE_MS);
    expect(first.notifier.shown).toHaveLength(1);
    await first.close();

    // A restart: a new service on the same data, which checks after connecting.
    const afterRestart = w.api.waitReads();
    const second = await start(w);
    await expect.poll(() => w.api.waitReads(), { timeout: 5_000 }).toBeGreaterThan(afterRestart);
    w.socket.complete(CHILD, '2026-01-01T00:00:09Z', 'success');
    await expect
      .poll(() => w.api.waitReads(), { timeout: 5_000 })
      .toBeGreaterThan(afterRestart + 1);
    await sleep(SETTLE_MS);
    expect(second.notifier.shown).toHaveLength(0);
    expect(await second.service.handlers['notifications.recent'](undefined, caller)).toEqual([]);
  });

  it('reads the waiting steps once for a burst of 20 completions', async () => {
    const siblings = Array.from({ length: 20 }, (_, i) => child(100 + i));
    const w = await world([root(), ...siblings, waitStep(WAIT, 'confirm', 'pending')]);
    const r = await start(w);
    await watchRoot(r, w);
    w.table.set(WAIT, waitStep(WAIT, 'confirm', 'running'));
    for (const [i, sibling] of siblings.entries()) {
      w.socket.complete(sibling.id, `2026-01-01T00:00:${String(10 + i)}Z`, 'success');
    }
    await expect
      .poll(() => r.events.filter((m) => m.event === 'workRequest.completed').length, {
        timeout: 10_000,
      })
      .toBe(20);
    await r.notifier.waitFor((n) => n.workRequestId === WAIT, 10_000);
    await sleep(SETTLE_MS);
    // One for watching the workflow, one for the whole burst.
    expect(w.api.waitReads()).toBe(2);
    expect(r.notifier.shown).toHaveLength(1);
  });

  it('says "signature" for an external signature, "you" for another step that needs input', async () => {
    const w = await world([
      root(),
      child(CHILD),
      waitStep(WAIT, 'externaldebsign', 'pending', ROOT, { display_name: 'Sign upload' }),
      waitStep(53, 'ask', 'pending', ROOT, { display_name: 'Pick a suite', needs_input: true }),
      // A delay waits for the clock, not for the user.
      waitStep(54, 'delay', 'pending', ROOT, { display_name: 'Wait an hour' }),
    ]);
    const r = await start(w);
    await watchRoot(r, w);
    for (const id of [WAIT, 53, 54]) {
      const step = w.table.get(id);
      if (step) w.table.set(id, { ...step, status: 'running' });
    }
    w.socket.complete(CHILD, '2026-01-01T00:00:01Z', 'success');
    await r.notifier.waitFor((n) => n.workRequestId === 53, 10_000);
    await sleep(SETTLE_MS);
    expect(
      r.notifier.shown.map((s) => [s.notification.workRequestId, s.notification.title]),
    ).toEqual([
      [WAIT, `Workflow #${String(ROOT)} waits for your signature`],
      [53, `Workflow #${String(ROOT)} waits for you`],
    ]);
    expect(r.notifier.shown[0]?.notification.body).toBe(
      'debian-pipeline-trixie in workspace System · step: Sign upload',
    );
  });
});
