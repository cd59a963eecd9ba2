/**
 * A Debusine made of two parts, for tests of what the app does with completions: a local
 * WebSocket server standing in for the completion websocket (its messages as the real one
 * sends them; on each new connection it sends again the completions it sent before, all of
 * them, or with `completed_at_since` those completed at that time or later, as the real
 * one does after an outage), and a client that answers from a table of work requests and
 * counts the list reads.
 */
import type { DebusineClient } from '../../src/main/api/client';
import type { WorkRequestFilters } from '../../src/main/api/work-requests';
import { DebusineError } from '../../src/shared/errors';
import type { WorkRequestResponse } from '../../src/shared/models';
import { webSocketsOnLoopback } from './loopback-http';

export interface CompletionSocket {
  apiUrl: string;
  /** Connections accepted so far. */
  readonly connections: number;
  complete(id: number, completedAt: string, result: string): void;
  /** Cuts every connection, as a network outage does; the app reconnects. */
  dropClients(): void;
  close(): Promise<void>;
}

export async function completionSocket(): Promise<CompletionSocket> {
  const server = await webSocketsOnLoopback();
  const { wss } = server;
  const sent: { completedAt: number; message: string }[] = [];
  let connections = 0;
  wss.on('connection', (socket, request) => {
    connections++;
    const since = new URL(request.url ?? '/', 'http://h').searchParams.get('completed_at_since');
    const from = since === null ? -Infinity : Date.parse(since);
    socket.send(JSON.stringify({ type: 'websocket.send', text: 'connected' }));
    for (const { completedAt, message } of sent) {
      if (completedAt >= from) socket.send(message);
    }
  });
  return {
    apiUrl: server.apiUrl,
    get connections() {
      return connections;
    },
    complete(id, completedAt, result) {
      const message = JSON.stringify({
        type: 'websocket.send',
        text: 'work_request_completed',
        work_request_id: id,
        completed_at: completedAt,
        result,
      });
      sent.push({ completedAt: Date.parse(completedAt), message });
      for (const client of wss.clients) client.send(message);
    },
    dropClients() {
      for (const client of wss.clients) client.terminate();
    },
    close: server.close,
  };
}

export interface TableClient {
  client: DebusineClient;
  /** The filters of every list read, in order. */
  lists: WorkRequestFilters[];
  /** List reads of running Wait steps so far. */
  waitReads(): number;
  /** Another client of the same server (what the app's client factory makes each time). */
  open(): DebusineClient;
}

function closedError(): DebusineError {
  return new DebusineError('network', 'The client was closed');
}

/**
 * Answers from `table` (read at each call, so a test changes what the server has by
 * changing the table): a GET by id, and the list with its filters applied, newest first.
 * `more`: other methods of the client the test needs (a retry, say).
 */
export function tableClient(
  apiUrl: string,
  table: Map<number, WorkRequestResponse>,
  more: Partial<Record<keyof DebusineClient, unknown>> = {},
): TableClient {
  const lists: WorkRequestFilters[] = [];
  const open = (): DebusineClient => {
    // A real client's requests fail once it is closed (its connection pool is gone).
    let closed = false;
    const client = {
      ...more,
      apiUrl,
      http: { siteUrl: apiUrl.replace(/\/api$/, '') },
      serverRevision: () => Promise.resolve({ features: { workRequestFilters: true } }),
      whoami: () => Promise.resolve({ user: 'alice', auth: true }),
      workRequestGet: (id: number) => {
        if (closed) return Promise.reject(closedError());
        const found = table.get(id);
        return found
          ? Promise.resolve(found)
          : Promise.reject(new DebusineError('not-found', `No work request ${String(id)}`));
      },
      async *workRequestIter(filters: WorkRequestFilters = {}) {
        lists.push({ ...filters });
        await Promise.resolve();
        if (closed) throw closedError();
        const ids = filters.ids ? new Set(filters.ids) : undefined;
        const all = [...table.values()].sort((a, b) => b.id - a.id);
        for (const wr of all) {
          if (ids && !ids.has(wr.id)) continue;
          if (filters.status !== undefined && wr.status !== filters.status) continue;
          if (filters.taskType !== undefined && wr.task_type !== filters.taskType) continue;
          yield wr;
        }
      },
      close: () => {
        closed = true;
        return Promise.resolve();
      },
    };
    return client as unknown as DebusineClient;
  };
  return {
    client: open(),
    open,
    lists,
    waitReads: () => lists.filter((f) => f.status === 'running' && f.taskType === 'Wait').length,
  };
}
