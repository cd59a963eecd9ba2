/**
 * Catching up after an outage: N work requests completed while the app was away; the
 * server replays their completions when the watcher reconnects from its resume point,
 * and each one must be read (whose it is, which workflow, what to notify) before the
 * list and the notifications are up to date. Measured from the watcher's start to the
 * last replayed completion handled:
 * - the app as it is (a backlog is read in list requests filtered by ids);
 * - the app reading one work request per completion (what it did before);
 * - raw: a bare `ws` client taking the same replay and one undici GET per completion,
 *   one after the other, which is what any client that reads each completion does;
 * - raw, websocket only: the replay itself, the floor under all of them.
 * The completions are seeded through Django's ORM (a thousand noops through the API
 * would take the sandbox's single worker minutes), at distinct instants, fresh for each
 * run so that every run replays exactly its own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import WebSocket from 'ws';
import { debusineAdminShellSync } from '../../test/support/debusine-admin';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import { CompletionRouter } from '../../src/main/watch/completion-router';
import { CompletionWatcher } from '../../src/main/watch/completion-watcher';
import { MemoryResumeStore } from '../../src/main/watch/resume-state';
import { completionSocketUrl } from '../../src/main/watch/socket-url';
import { WatchList } from '../../src/main/watch/watch-list';
import type { BenchContext } from '../lib/context';
import type { BenchServer } from '../lib/server';

/** Marks the seeded rows (in `dynamic_task_data`), so that they can be deleted after. */
const MARKER = { 'debusine-desktop-bench-replay': true };
/** The marker as a Python expression. */
const MARKER_PY = `json.loads(${JSON.stringify(JSON.stringify(MARKER))})`;

interface Backlog {
  ids: number[];
  /** Just before the first of them: where the watcher resumes. */
  since: string;
}

/** N completed work requests, a millisecond apart, ending a second ago. */
function seedBacklog(server: BenchServer, count: number): Backlog {
  const script = `
import datetime
import json
from django.utils import timezone
from debusine.db.models import WorkRequest, Workspace
from django.contrib.auth import get_user_model
ws = Workspace.objects.get(name=${JSON.stringify(server.workspace)}, scope__name=${JSON.stringify(server.scope)})
user = get_user_model().objects.get(username="alice")
end = timezone.now() - datetime.timedelta(seconds=1)
start = end - datetime.timedelta(milliseconds=${String(count)})
made = WorkRequest.objects.bulk_create([
    WorkRequest(workspace=ws, created_by=user, task_type="Worker", task_name="noop",
                task_data={}, dynamic_task_data=${MARKER_PY},
                status="completed", result="success" if i % 7 else "failure",
                started_at=start, completed_at=start + datetime.timedelta(milliseconds=i + 1))
    for i in range(${String(count)})
], batch_size=500)
print(start.isoformat(), " ".join(str(w.id) for w in made))
`;
  const line = debusineAdminShellSync(server.root, script).trim().split('\n').pop() ?? '';
  const [since = '', ...ids] = line.split(' ');
  if (ids.length !== count) throw new Error(`seeding the backlog failed: ${line.slice(0, 200)}`);
  return { ids: ids.map(Number), since };
}

/**
 * Deletes every backlog seeded so far: they are thousands of rows per run, and every list
 * of work requests (the 10,000-row e2e test reads them all) would be slower for them.
 */
export function deleteBacklogs(server: BenchServer): number {
  const script = `
import json
from debusine.db.models import WorkRequest
print(WorkRequest.objects.filter(dynamic_task_data=${MARKER_PY}).delete()[0])
`;
  return Number(debusineAdminShellSync(server.root, script).trim().split('\n').pop());
}

/** The app's watcher and router, from the backlog's resume point to its last completion. */
async function appCatchUp(ctx: BenchContext, backlog: Backlog, readsByIds: boolean) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-replay-'));
  const left = new Set(backlog.ids);
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const router = new CompletionRouter({
    client: ctx.client,
    watchList: new WatchList(join(dir, 'watch.json')),
    notifier: new RecordingNotifier(),
    readsByIds: () => Promise.resolve(readsByIds),
  });
  router.on('changed', (c) => {
    if (left.delete(c.workRequestId) && left.size === 0) finished();
  });
  const resume = new MemoryResumeStore();
  resume.point = { lastCompletedAt: backlog.since, idsAtLast: [] };
  const watcher = new CompletionWatcher({
    apiUrl: ctx.server.apiUrl,
    getToken: () => ctx.server.token,
    resume,
    onCompletion: (event) => router.handleCompletion(event),
  });
  router.attach(watcher);
  try {
    await watcher.start();
    await withTimeout(done, 600_000, () => `${String(left.size)} completions never handled`);
  } finally {
    router.detach();
    await watcher.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A bare websocket client; with `read`, one GET per completion, in order. */
async function rawCatchUp(server: BenchServer, backlog: Backlog, read: boolean): Promise<void> {
  const left = new Set(backlog.ids);
  const url = completionSocketUrl(server.apiUrl, { since: backlog.since });
  const socket = new WebSocket(url, { headers: { Token: server.token } });
  let chain = Promise.resolve();
  let failure: Error | undefined;
  const done = new Promise<void>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as { work_request_id?: unknown };
      const id = message.work_request_id;
      if (typeof id !== 'number' || !left.has(id)) return;
      chain = chain.then(async () => {
        if (read) {
          const response = await request(`${server.apiUrl}/1.0/work-request/${String(id)}/`, {
            headers: { token: server.token, 'x-debusine-scope': server.scope },
          });
          const body = (await response.body.json()) as { status?: string };
          if (response.statusCode !== 200 || body.status !== 'completed') {
            failure ??= new Error(
              `work request ${String(id)}: HTTP ${String(response.statusCode)}`,
            );
          }
        }
        left.delete(id);
        if (left.size === 0) resolve();
      });
    });
  });
  try {
    await withTimeout(done, 600_000, () => `${String(left.size)} completions never replayed`);
    await chain;
    if (failure) throw failure;
  } finally {
    socket.terminate();
  }
}

async function withTimeout(done: Promise<void>, ms: number, what: () => string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(what()));
    }, ms);
  });
  try {
    await Promise.race([done, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function replayAfterOutage(ctx: BenchContext): Promise<void> {
  const count = ctx.sizes.replay;
  const scenario = `catch up ${String(count)} completions after an outage`;
  deleteBacklogs(ctx.server);
  try {
    await measureCatchUp(ctx, scenario, count);
  } finally {
    ctx.log(`deleted ${String(deleteBacklogs(ctx.server))} seeded work requests`);
  }
  const ratio = ctx.median(scenario, 'app') / ctx.median(scenario, 'raw ws + HTTP');
  ctx.target(scenario, 'catch-up, app / raw ws + one GET each', ratio, {
    max: 0.5,
    text: '≤ 0.5',
  });
}

async function measureCatchUp(ctx: BenchContext, scenario: string, count: number) {
  await ctx.measureRounds<Backlog>(
    scenario,
    [
      {
        subject: 'app',
        run: (backlog) => appCatchUp(ctx, backlog, true),
        note: 'watcher + router; a backlog is read 50 ids per list request',
      },
      {
        subject: 'app, one GET each',
        run: (backlog) => appCatchUp(ctx, backlog, false),
        note: 'the same, reading each completion alone (no read-ahead)',
      },
      {
        subject: 'raw ws + HTTP',
        run: (backlog) => rawCatchUp(ctx.server, backlog, true),
        note: 'bare ws client, one undici GET per completion',
      },
      {
        subject: 'raw ws only',
        run: (backlog) => rawCatchUp(ctx.server, backlog, false),
        note: 'the replay alone, nothing read',
      },
    ],
    () => Promise.resolve(seedBacklog(ctx.server, count)),
  );
}
