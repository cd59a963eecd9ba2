/**
 * A bridge over a table of work requests that a test changes as a Debusine server would:
 * a step is unblocked, starts, completes, is aborted. Its list answers as main's
 * `workRequests.page` does on a current server (ten a page, newest created first, filtered
 * by ids, task type, roots only and status, with opaque cursors), and `emit` plays main's
 * events. Every request is recorded, so that a test can count what a view costs the server.
 */
import type { WorkRequestPage, WorkRequestResponse } from '@shared/contract';
import { fakeBridge, type FakeBridge, type FakeHandlers } from './fake-bridge';
import { SERVER_A } from './server-a';

export interface TableBridge extends FakeBridge {
  table: Map<number, WorkRequestResponse>;
  /** Changes some fields of a row, as the server's database would. */
  update(id: number, fields: Partial<WorkRequestResponse>): void;
  /**
   * What main tells the window when the completion websocket names `id`: the router's
   * `changed` (the work request and its root) and then `workRequest.completed`.
   */
  completed(id: number): void;
  /** The requests of one channel so far. */
  callsOf(channel: string): unknown[];
}

const PAGE_SIZE = 10;

export function tableBridge(
  rows: readonly WorkRequestResponse[],
  handlers: FakeHandlers = {},
): TableBridge {
  const table = new Map(rows.map((wr) => [wr.id, wr]));
  const cursors = new Map<string, WorkRequestResponse[]>();
  const page = (matching: WorkRequestResponse[]): WorkRequestPage => {
    const rest = matching.slice(PAGE_SIZE);
    let cursor: string | null = null;
    if (rest.length > 0) {
      cursor = `cursor-${String(cursors.size)}`;
      cursors.set(cursor, rest);
    }
    return { items: matching.slice(0, PAGE_SIZE), nextCursor: cursor, creators: {} };
  };
  const fake = fakeBridge({
    'servers.active': () => SERVER_A,
    'workRequests.get': ({ id }) => {
      const found = table.get(id);
      if (!found) throw new Error(`no work request ${String(id)}`);
      return found;
    },
    'workRequests.page': (args) => {
      if (args?.cursor) return page(cursors.get(args.cursor) ?? []);
      const matching = [...table.values()]
        .filter((wr) => !args?.ids || args.ids.includes(wr.id))
        .filter((wr) => !args?.taskType || wr.task_type === args.taskType)
        .filter((wr) => !args?.rootOnly || wr.parent == null)
        .filter((wr) => !args?.status || wr.status === args.status)
        .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id);
      return page(matching);
    },
    'workRequests.needsMe': () =>
      [...table.values()].filter((wr) => wr.task_type === 'Wait' && wr.status === 'running'),
    'workRequests.explainFailure': () => null,
    'watch.list': () => [],
    'notifications.recent': () => [],
    'users.names': () => ({}),
    'session.whoami': () => ({
      server: SERVER_A,
      user: 'alice',
      userId: 2,
      authenticated: true,
    }),
    'connection.get': () => ({
      serverId: SERVER_A.id,
      status: 'connected',
      nextAttemptAt: null,
      since: '2026-11-28T10:00:00Z',
      error: null,
    }),
    ...handlers,
  });
  const update = (id: number, fields: Partial<WorkRequestResponse>): void => {
    const found = table.get(id);
    if (!found) throw new Error(`no work request ${String(id)}`);
    table.set(id, { ...found, ...fields });
  };
  return Object.assign(fake, {
    table,
    update,
    completed(id: number) {
      const wr = table.get(id);
      if (!wr) throw new Error(`no work request ${String(id)}`);
      const root = wr.workflow_root ?? wr.id;
      fake.emit('workRequests.changed', { ids: [...new Set([id, root])] });
      fake.emit('workRequest.completed', {
        workRequestId: id,
        completedAt: wr.completed_at ?? '',
        status: wr.status,
        result: wr.result,
        workspace: wr.workspace,
        workflowRoot: root === id ? null : root,
      });
    },
    callsOf: (channel: string) =>
      fake.calls.filter((c) => c.channel === channel).map((c) => c.args),
  });
}
