/**
 * The check behind "Workflow #N waits for you", on its own: what it trusts of the server's
 * answer (nothing it can check itself), how much of it it reads, what it shows of the names
 * the server chose, when it runs after a workflow is started, what it keeps on disk, and
 * how the notification gate treats what it shows.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkRequestFilters } from '../../src/main/api/work-requests';
import { NotificationGate } from '../../src/main/notify/gate';
import { needsInputNotification, oneLine } from '../../src/main/notify/needs-input-notification';
import { RecordingNotifier, type NotificationHandlers } from '../../src/main/notify/notifier';
import { workRequestHandlers, type WorkRequestDeps } from '../../src/main/service/work-requests';
import { NeedsInputWatch, type NeedsInputOptions } from '../../src/main/watch/needs-input';
import { NOTIFIED_WAITS_LIMIT, WatchList } from '../../src/main/watch/watch-list';
import { DebusineError } from '../../src/shared/errors';
import type { NotificationPreferences, NotificationRecord } from '../../src/shared/contract';
import type { WorkRequestResponse } from '../../src/shared/models';
import { runningPipelineFixture, workRequestFixture } from '../support/work-requests';
import { testCaller } from '../support/caller';

/** The renderer these tests stand for: it holds what they open. */
const caller = testCaller();

const ROOT = 10;

function root(extra: Record<string, unknown> = {}): WorkRequestResponse {
  return runningPipelineFixture(ROOT, extra);
}

function step(id: number, extra: Record<string, unknown> = {}): WorkRequestResponse {
  return workRequestFixture(id, {
    task_type: 'Wait',
    task_name: 'confirm',
    status: 'running',
    result: '',
    completed_at: null,
    parent: ROOT,
    workflow_root: ROOT,
    workflow_data: { display_name: 'Confirm', needs_input: true },
    ...extra,
  });
}

type Source = NeedsInputOptions['client'];

/** A server whose list answers `list()` whatever the filters, and whose GET knows `known`. */
function source(
  list: () => Iterable<WorkRequestResponse>,
  known: WorkRequestResponse[] = [root()],
): Source & { lists: WorkRequestFilters[] } {
  const lists: WorkRequestFilters[] = [];
  return {
    lists,
    workRequestGet: (id: number) => {
      const found = known.find((wr) => wr.id === id);
      return found
        ? Promise.resolve(found)
        : Promise.reject(new DebusineError('not-found', `No work request ${String(id)}`));
    },
    async *workRequestIter(filters: WorkRequestFilters = {}) {
      lists.push(filters);
      yield* list();
    },
  };
}

const dirs: string[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function watchedList(ids: number[] = [ROOT]): Promise<WatchList> {
  const dir = await mkdtemp(join(tmpdir(), 'needs-input-check-'));
  dirs.push(dir);
  const list = new WatchList(join(dir, 'watch.json'));
  await list.load();
  for (const id of ids) await list.add(id, 'user', 'my pipeline');
  return list;
}

function watch(
  client: Source,
  watchList: WatchList,
  extra: Partial<NeedsInputOptions> = {},
): { watch: NeedsInputWatch; notifier: RecordingNotifier; errors: unknown[] } {
  const notifier = new RecordingNotifier(false);
  const errors: unknown[] = [];
  const handlers: NotificationHandlers = { onClick: () => undefined, onAction: () => undefined };
  const w = new NeedsInputWatch({
    client,
    watchList,
    // The gate's narrower notifier type is what the router passes; the recording one takes it.
    notifier,
    handlersFor: () => handlers,
    onError: (error) => errors.push(error),
    ...extra,
  });
  return { watch: w, notifier, errors };
}

const shownIds = (n: RecordingNotifier) => n.shown.map((s) => s.notification.workRequestId);

describe('what the check trusts of the server', () => {
  it('notifies only running Wait steps of a watched workflow, whatever the list sends', async () => {
    // A server that ignores the filters (or lies) sends everything it has.
    const answer = [
      step(20),
      step(21, { status: 'completed', result: 'success' }),
      step(22, { task_type: 'Worker' }),
      step(23, { task_name: 'delay', workflow_data: { needs_input: 'true' } }),
      step(24, { workflow_root: null }),
      step(25, { workflow_root: 99 }),
      step(ROOT, { workflow_root: ROOT }),
      step(26, { task_name: 'externaldebsign', status: 'pending' }),
    ];
    const list = await watchedList();
    const { watch: w, notifier } = watch(
      source(() => answer),
      list,
    );
    await w.check();
    expect(shownIds(notifier)).toEqual([20]);
  });

  it('reads a list that never ends only up to its limit, and shows what it found', async () => {
    let pulled = 0;
    function* endless(): Generator<WorkRequestResponse> {
      yield step(20);
      for (let id = 1000; ; id++) {
        // Without a limit the check would read forever; this ends the test instead.
        if (++pulled > 10_000) throw new Error('read on and on');
        yield step(id, { workflow_root: 99 });
      }
    }
    const list = await watchedList();
    const { watch: w, notifier } = watch(source(endless), list, { scanLimit: 50 });
    await w.check();
    expect(pulled).toBe(49);
    expect(shownIds(notifier)).toEqual([20]);
  });

  it('shows the names the server chose as one short line each', async () => {
    const hostile = `evil\n\nTitle: Succeeded\u0007\u2028${'x'.repeat(1_000_000)}`;
    const answer = [step(20, { workflow_data: { display_name: `Confirm\r\n${'y'.repeat(500)}` } })];
    const client = source(
      () => answer,
      [root({ workflow_data: { workflow_template_name: hostile }, workspace: 'Sys\ntem' })],
    );
    const list = await watchedList();
    const { watch: w, notifier } = watch(client, list);
    await w.check();
    const shown = notifier.shown[0]?.notification;
    expect(shown?.title).toBe(`Workflow #${String(ROOT)} waits for your confirmation`);
    expect(shown?.body).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
    expect(shown?.body.length).toBeLessThan(400);
    expect(shown?.body).toMatch(
      /^evil Title: Succeeded x+… in workspace Sys tem · step: Confirm y+…$/,
    );
  });

  it('cuts a long name between two characters, never inside one', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    const cut = oneLine(family.repeat(200));
    expect(cut.endsWith(`${family}…`)).toBe(true);
    expect(cut.slice(0, -1).split(family).join('')).toBe('');
    expect(oneLine(` a\tb \n c `)).toBe('a b c');
  });

  it('names the workflow from the watch list when its root cannot be read', async () => {
    const list = await watchedList();
    const { watch: w, notifier } = watch(
      source(() => [step(20)], []),
      list,
    );
    await w.check();
    expect(notifier.shown[0]?.notification.body).toBe(
      'my pipeline in workspace System · step: Confirm',
    );
  });

  it('reads nothing from a server whose list does not filter (no step names its workflow)', async () => {
    const client = source(() => [step(20)]);
    const list = await watchedList();
    const { watch: w, notifier } = watch(client, list, {
      listFilters: () => Promise.resolve(false),
    });
    await w.check();
    expect(client.lists).toEqual([]);
    expect(notifier.shown).toEqual([]);
  });

  it('reads nothing while nothing is watched', async () => {
    const client = source(() => [step(20)]);
    const { watch: w } = watch(client, await watchedList([]));
    await w.check();
    expect(client.lists).toEqual([]);
  });
});

describe('when the check runs', () => {
  it('after a workflow is started, a few times: its steps come in the background', async () => {
    vi.useFakeTimers();
    let steps: WorkRequestResponse[] = [];
    const client = source(() => steps);
    const list = await watchedList();
    const { watch: w, notifier } = watch(client, list, {
      debounceMs: 10,
      afterStartMs: [100, 1_000],
    });
    w.afterStart(root());
    // A lone work request has no steps to wait.
    w.afterStart(workRequestFixture(11, { status: 'pending' }));
    await vi.advanceTimersByTimeAsync(200);
    expect(client.lists).toHaveLength(1);
    expect(notifier.shown).toEqual([]);
    steps = [step(20)];
    await vi.advanceTimersByTimeAsync(1_000);
    expect(client.lists).toHaveLength(2);
    expect(shownIds(notifier)).toEqual([20]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.lists).toHaveLength(2);
    await w.close();
  });

  it('after a step completes, again seconds later: the step that waits next is made after it', async () => {
    vi.useFakeTimers();
    let steps: WorkRequestResponse[] = [];
    const client = source(() => steps);
    const { watch: w, notifier } = watch(client, await watchedList(), {
      debounceMs: 10,
      afterStepMs: [500, 2_000],
    });
    // QA's steps complete in a burst: one check at once, one series of follow-ups after the last.
    w.afterStep();
    await vi.advanceTimersByTimeAsync(100);
    w.afterStep();
    await vi.advanceTimersByTimeAsync(100);
    expect(client.lists).toHaveLength(2);
    expect(notifier.shown).toEqual([]);
    // The signature wait is made and starts after QA's last completion.
    steps = [step(20)];
    await vi.advanceTimersByTimeAsync(500);
    expect(client.lists).toHaveLength(3);
    expect(shownIds(notifier)).toEqual([20]);
    // The rest of the series, and nothing after it: a bounded number of reads, one notification.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.lists.length).toBeLessThanOrEqual(4);
    expect(shownIds(notifier)).toEqual([20]);
    await w.close();
  });

  it('once for all that ask within the debounce delay, and never after close', async () => {
    vi.useFakeTimers();
    const client = source(() => [step(20)]);
    const { watch: w } = watch(client, await watchedList(), { debounceMs: 300 });
    for (let i = 0; i < 20; i++) {
      w.schedule();
      await vi.advanceTimersByTimeAsync(10);
    }
    await vi.advanceTimersByTimeAsync(300);
    expect(client.lists).toHaveLength(1);
    w.schedule();
    w.afterStart(root());
    await w.close();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.lists).toHaveLength(1);
  });

  it('reads once more when asked during a read, never two at a time', async () => {
    let release: () => void = () => undefined;
    let reading = 0;
    let most = 0;
    const client = source(() => [step(20)]);
    const slow = {
      ...client,
      async *workRequestIter(filters: WorkRequestFilters) {
        reading++;
        most = Math.max(most, reading);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        yield* client.workRequestIter(filters);
        reading--;
      },
    } as unknown as Source;
    const { watch: w, notifier } = watch(slow, await watchedList());
    const first = w.check();
    await vi.waitFor(() => {
      expect(reading).toBe(1);
    });
    const second = w.check();
    void w.check();
    release();
    await vi.waitFor(() => {
      expect(client.lists).toHaveLength(1);
    });
    release();
    await Promise.all([first, second]);
    expect(client.lists).toHaveLength(2);
    expect(most).toBe(1);
    expect(shownIds(notifier)).toEqual([20]);
  });
});

describe('closing', () => {
  it('waits for the read under way, and shows and writes nothing after it', async () => {
    let release: () => void = () => undefined;
    const client = source(() => [step(20)]);
    const slow = {
      ...client,
      async *workRequestIter(filters: WorkRequestFilters) {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        yield* client.workRequestIter(filters);
      },
    } as unknown as Source;
    const list = await watchedList();
    const { watch: w, notifier } = watch(slow, list);
    void w.check();
    let closed = false;
    const closing = w.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);
    release();
    await closing;
    expect(notifier.shown).toEqual([]);
    expect(list.waitNotified(20)).toBe(false);
    const saved = JSON.parse(await readFile(list.path, 'utf8')) as { notifiedWaits: number[] };
    expect(saved.notifiedWaits).toEqual([]);
  });
});

describe('what the watch list keeps of notified steps', () => {
  it('keeps the watch list when the notified steps in its file are damaged', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'needs-input-file-'));
    dirs.push(dir);
    const path = join(dir, 'watch.json');
    const item = { id: ROOT, source: 'user', addedAt: 'x' };
    await writeFile(path, JSON.stringify({ version: 1, items: [item], notifiedWaits: ['20', -1] }));
    const list = new WatchList(path);
    await list.load();
    expect(list.has(ROOT)).toBe(true);
    expect(list.waitNotified(20)).toBe(false);
  });

  it('keeps at most its limit on disk, the newest, however many the file had', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'needs-input-file-'));
    dirs.push(dir);
    const path = join(dir, 'watch.json');
    const many = Array.from({ length: 50_000 }, (_, i) => i + 1);
    await writeFile(path, JSON.stringify({ version: 1, items: [], notifiedWaits: many }));
    const list = new WatchList(path);
    await list.load();
    expect(list.waitNotified(50_000)).toBe(true);
    expect(list.waitNotified(1)).toBe(false);
    let changed = 0;
    list.on('changed', () => changed++);
    await list.markWaitNotified(60_000);
    const saved = JSON.parse(await readFile(path, 'utf8')) as { notifiedWaits: number[] };
    expect(saved.notifiedWaits).toHaveLength(NOTIFIED_WAITS_LIMIT);
    expect(saved.notifiedWaits.at(-1)).toBe(60_000);
    expect(saved.notifiedWaits[0]).toBe(50_000 - NOTIFIED_WAITS_LIMIT + 2);
    // Not a change of what is watched: the renderer is not told.
    expect(changed).toBe(0);
  });
});

describe('the gate and a step that waits for the user', () => {
  const waiting = (id: number) =>
    needsInputNotification(
      step(id),
      'confirmation',
      { id: ROOT, name: 'p', workspace: 'S' },
      false,
    );
  const handlers: NotificationHandlers = { onClick: () => undefined, onAction: () => undefined };

  function gate(settings: Partial<NotificationPreferences>) {
    const inner = new RecordingNotifier(false);
    const recorded: NotificationRecord[] = [];
    const g = new NotificationGate({
      inner,
      settings: () => ({
        mode: 'watched',
        workspaces: [],
        failuresOnly: false,
        snoozedUntil: null,
        ...settings,
      }),
      recorded: (record) => recorded.push(record),
    });
    return { g, inner, recorded };
  }

  it('shows it with failures only, in every mode; snooze mutes it', () => {
    for (const mode of ['watched', 'mine', 'workspace'] as const) {
      const { g, inner, recorded } = gate({ mode, failuresOnly: true });
      g.show(waiting(20), handlers);
      expect(shownIds(inner)).toEqual([20]);
      expect(recorded).toMatchObject([{ workRequestId: 20, rootId: ROOT, result: 'needs input' }]);
    }
    const snoozed = gate({ snoozedUntil: new Date(Date.now() + 60_000).toISOString() });
    snoozed.g.show(waiting(20), handlers);
    expect(snoozed.inner.shown).toEqual([]);
    expect(snoozed.recorded).toEqual([]);
  });

  it('counts waiting steps in a burst as waiting, not as failures', () => {
    vi.useFakeTimers();
    const { g, inner } = gate({});
    for (let id = 20; id < 26; id++) g.show(waiting(id), handlers);
    vi.advanceTimersByTime(5_000);
    expect(inner.shown.at(-1)?.notification.title).toBe('3 steps wait for you');
  });
});

describe('the "needs me" inbox', () => {
  it('lists the same waiting steps as the notifications, whatever the list sends', async () => {
    const answer = [
      step(20),
      step(21, { task_name: 'externaldebsign', workflow_data: {} }),
      step(22, { task_name: 'ask', workflow_data: { needs_input: true } }),
      step(23, { task_name: 'delay', workflow_data: {} }),
      step(24, { task_type: 'Worker' }),
    ];
    const client = source(() => answer);
    const handlers = workRequestHandlers({
      session: { client: () => client, active: () => undefined },
      emit: () => undefined,
      starts: {},
      users: {},
    } as unknown as WorkRequestDeps);
    const inbox = await handlers['workRequests.needsMe'](undefined, caller);
    expect(inbox.map((wr) => wr.id).sort()).toEqual([20, 21, 22]);
  });
});
