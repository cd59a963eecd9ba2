/**
 * The work requests of a fake Debusine (fake-debusine.ts), as a 0.16 server serves them:
 * `whoami` (a current server's answer, so that the app uses the list's filters), the list
 * (newest first by creation time, ten a page, `next` as a cursor URL, filtered by `ids`,
 * `task_type`, `root_only` and `status`), one work request by id, and the completion
 * websocket, which says `connected` and sends the completions a test asks for. The rows
 * are a table the test changes as the server would: a step appears, starts, ends.
 */
import type { ServerResponse } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { FakeDebusine } from './fake-debusine';

/** A work request as the API sends it; `row()` fills what a test leaves out. */
export type WorkRequestJson = Record<string, unknown> & {
  id: number;
  created_at: string;
  status: string;
  result: string;
};

export interface FakeWorkRequests {
  /** Adds or replaces a row. */
  set(row: WorkRequestJson): void;
  /** Changes some fields of a row. */
  update(id: number, fields: Record<string, unknown>): void;
  get(id: number): WorkRequestJson | undefined;
  /** Sends a completion on the websocket, as the server does from `mark_completed`. */
  complete(id: number): void;
  /** The list reads and GETs served so far (paths with their queries). */
  readonly reads: string[];
  close(): Promise<void>;
}

const PAGE_SIZE = 10;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A row as a 0.16 server writes one, from what the test gives. */
export function row(
  id: number,
  fields: Partial<WorkRequestJson> & { created_at: string },
): WorkRequestJson {
  return {
    id,
    url: `/debusine/System/work-request/${String(id)}/`,
    parent: null,
    workflow_root: null,
    task_name: 'noop',
    created_by: 1,
    completed_by: null,
    aborted_by: null,
    started_at: null,
    completed_at: null,
    duration: null,
    worker: null,
    task_type: 'Worker',
    task_data: {},
    dynamic_task_data: null,
    priority_base: 0,
    priority_adjustment: 0,
    workflow_data: {},
    event_reactions: {},
    status: 'pending',
    result: '',
    artifacts: [],
    scope: 'debusine',
    workspace: 'System',
    scheduler_tags_provided: [],
    scheduler_tags_required: [],
    links: {},
    ...fields,
  };
}

export function serveWorkRequests(fake: FakeDebusine): FakeWorkRequests {
  const table = new Map<number, WorkRequestJson>();
  const reads: string[] = [];
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true });

  fake.handle('/api/1.0/whoami/', (_req, res) => {
    json(res, 200, { user: 'alice', auth: true, work_request: null, worker: false });
  });

  const list = (res: ServerResponse, url: URL): void => {
    const q = url.searchParams;
    const ids = q.get('ids')?.split(',').map(Number);
    const rows = [...table.values()]
      .filter((r) => !ids || ids.includes(r.id))
      .filter((r) => q.get('task_type') === null || r.task_type === q.get('task_type'))
      .filter((r) => q.get('root_only') !== 'true' || r.parent === null)
      .filter((r) => q.get('status') === null || r.status === q.get('status'))
      .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id);
    const offset = Number(q.get('cursor') ?? '0') || 0;
    const next = new URL(url);
    next.searchParams.set('cursor', String(offset + PAGE_SIZE));
    json(res, 200, {
      next: offset + PAGE_SIZE < rows.length ? `${fake.site}${next.pathname}${next.search}` : null,
      previous: null,
      results: rows.slice(offset, offset + PAGE_SIZE),
    });
  };

  fake.handle('/api/1.0/work-request/', (req, res) => {
    const url = new URL(req.url ?? '/', fake.site);
    reads.push(url.pathname + url.search);
    const one = /^\/api\/1\.0\/work-request\/(\d+)\/$/.exec(url.pathname);
    if (one) {
      const found = table.get(Number(one[1]));
      if (found) json(res, 200, found);
      else json(res, 404, { title: 'Not Found', status: 404, detail: 'No WorkRequest matches' });
      return;
    }
    if (url.pathname === '/api/1.0/work-request/' && req.method === 'GET') {
      list(res, url);
      return;
    }
    json(res, 405, { title: 'Method Not Allowed', status: 405 });
  });

  fake.onUpgrade((req, socket, head) => {
    if (!(req.url ?? '').startsWith('/api/ws/1.0/work-request/on-completed/')) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.send(JSON.stringify({ type: 'websocket.send', text: 'connected' }));
    });
  });

  return {
    set(r) {
      table.set(r.id, r);
    },
    update(id, fields) {
      const found = table.get(id);
      if (!found) throw new Error(`no work request ${String(id)}`);
      table.set(id, { ...found, ...fields });
    },
    get: (id) => table.get(id),
    complete(id) {
      const found = table.get(id);
      if (!found) throw new Error(`no work request ${String(id)}`);
      const message = JSON.stringify({
        type: 'websocket.send',
        text: 'work_request_completed',
        work_request_id: id,
        completed_at: found.completed_at,
        result: found.result,
      });
      for (const ws of sockets) ws.send(message);
    },
    reads,
    async close() {
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => {
        wss.close(() => {
          resolve();
        });
      });
    },
  };
}
