// @vitest-environment happy-dom
/**
 * A workflow's tree while it runs: the server adds its steps after Start has answered, and
 * moves them along without any completion, so the steps are read again on a timer that
 * backs off a little while nothing changes (never past the 5 s a change may take to show)
 * and stops once the root and every step have ended. A refresh reads the top of the list
 * and the unfinished steps by id, never the whole list again.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import {
  EMPTY_READS,
  LIVE_EMPTY_MS,
  LIVE_FIRST_MS,
  LIVE_MAX_MS,
  readWorkflowSteps,
  stepsRefreshDelay,
} from '@renderer/queries/workflow-steps';
import { WorkflowSteps } from '@renderer/screens/work-requests/workflow-tree';
import type { WorkRequestPage, WorkRequestResponse } from '@shared/contract';
import { SERVER_A } from './support/server-a';
import { fakeBridge } from './support/fake-bridge';
import { workRequestFixture } from '../../support/work-requests';

const ROOT = 100;

function wr(id: number, extra: Partial<WorkRequestResponse> = {}): WorkRequestResponse {
  return workRequestFixture(id, {
    parent: null,
    workflow_root: null,
    // One second per id: the list is newest first by creation time, as the server's.
    created_at: new Date(Date.UTC(2026, 10, 26, 3, 0, 0) + id * 1000).toISOString(),
    completed_at: null,
    ...extra,
  });
}

/** A server's list (10 a page, newest first, filtered by ids) over a table a test changes. */
function server(table: Map<number, WorkRequestResponse>) {
  const cursors = new Map<string, WorkRequestResponse[]>();
  const page = (rows: WorkRequestResponse[]): WorkRequestPage => {
    const rest = rows.slice(10);
    const cursor = rest.length > 0 ? `c${String(cursors.size)}` : null;
    if (cursor !== null) cursors.set(cursor, rest);
    return { items: rows.slice(0, 10), nextCursor: cursor, creators: {} };
  };
  return fakeBridge({
    'servers.active': () => SERVER_A,
    'workRequests.get': ({ id }) => {
      const found = table.get(id);
      if (!found) throw new Error(`no ${String(id)}`);
      return found;
    },
    'workRequests.page': (args) => {
      if (args?.cursor) return page(cursors.get(args.cursor) ?? []);
      const rows = [...table.values()]
        .filter((r) => !args?.ids || args.ids.includes(r.id))
        .sort((a, b) => b.id - a.id);
      return page(rows);
    },
  });
}

const running = { status: 'running', result: '', completed_at: null };
const step = (id: number, extra: Partial<WorkRequestResponse> = {}) =>
  wr(id, { parent: ROOT, workflow_root: ROOT, task_name: 'sbuild', ...extra });

afterEach(cleanup);

describe("a running workflow's steps", () => {
  it('appear as the server creates them, in the states they are in, without a completion', async () => {
    const table = new Map<number, WorkRequestResponse>([
      [
        ROOT,
        wr(ROOT, {
          task_type: 'Workflow',
          task_name: 'debian_pipeline',
          status: 'pending',
          result: '',
          workflow_root: ROOT,
        }),
      ],
    ]);
    const fake = server(table);
    const queryClient = new QueryClient();
    render(
      <BridgeProvider client={fake.client}>
        <QueryClientProvider client={queryClient}>
          <WorkflowSteps root={table.get(ROOT) ?? wr(ROOT)} />
        </QueryClientProvider>
      </BridgeProvider>,
    );
    expect((await screen.findByTestId('no-steps')).textContent).toMatch(/^No steps yet/);
    // The server populates the workflow in the background.
    table.set(ROOT, { ...wr(ROOT), task_type: 'Workflow', ...running, workflow_root: ROOT });
    table.set(101, step(101, running));
    table.set(102, step(102, { status: 'pending', result: '', task_name: 'lintian' }));
    table.set(103, step(103, { status: 'blocked', result: '', task_name: 'autopkgtest' }));
    const tree = await screen.findByRole(
      'list',
      { name: `Steps of workflow ${String(ROOT)}` },
      { timeout: LIVE_FIRST_MS * 3 },
    );
    expect(tree.textContent).toContain('Running');
    expect(tree.textContent).toContain('Pending');
    expect(tree.textContent).toContain('Blocked');
    // Nothing but the timer read them again: no event came from main, and no other request.
    expect(new Set(fake.calls.map((c) => c.channel))).toEqual(
      new Set(['servers.active', 'workRequests.get', 'workRequests.page']),
    );
  }, 20_000);
});

describe('a refresh', () => {
  it('reads the top of the list and the unfinished steps by id, not the whole list', async () => {
    const table = new Map<number, WorkRequestResponse>();
    table.set(ROOT, wr(ROOT, { task_type: 'Workflow', ...running, workflow_root: ROOT }));
    table.set(101, step(101, running));
    table.set(102, step(102, { status: 'completed', result: 'success' }));
    // Five minutes of other work on a busy server, after the workflow's steps.
    for (let id = 200; id < 500; id++)
      table.set(
        id,
        wr(id, {
          created_at: new Date(Date.UTC(2026, 10, 26, 3, 0, 0) + 300_000 + id * 1000).toISOString(),
        }),
      );
    const fake = server(table);
    const queryClient = new QueryClient();
    const key = ['s', 'steps'];
    const context = { client: queryClient, queryKey: key };
    const first = await readWorkflowSteps(fake.client, ROOT, context);
    expect(first.steps.map((s) => s.id).sort()).toEqual([101, 102]);
    // The first read went down to the root: 31 pages of 10.
    expect(first.complete).toBe(true);
    expect(fake.calls.filter((c) => c.channel === 'workRequests.page')).toHaveLength(31);
    queryClient.setQueryData(key, { ...first, steps: [table.get(101), table.get(102)] });
    fake.calls.length = 0;
    // A new step on top, and the running one completes.
    table.set(
      2000,
      step(500, {
        status: 'pending',
        result: '',
        created_at: new Date(Date.UTC(2026, 10, 26, 3, 0, 0) + 300_000 + 500 * 1000).toISOString(),
      }),
    );
    table.set(101, step(101, { status: 'completed', result: 'failure' }));
    const next = await readWorkflowSteps(fake.client, ROOT, context);
    expect(next.steps.map((s) => [s.id, s.status, s.result]).sort()).toEqual([
      [101, 'completed', 'failure'],
      [102, 'completed', 'success'],
      [500, 'pending', ''],
    ]);
    expect(next.quiet).toBe(0);
    // The root, the top pages down to a little before the last read, and 101 by id.
    const pages = fake.calls.filter((c) => c.channel === 'workRequests.page');
    expect(pages.length).toBeLessThanOrEqual(6);
    expect(pages.some((c) => JSON.stringify(c.args) === JSON.stringify({ ids: [101] }))).toBe(true);
  });

  it('backs off while nothing changes, up to 4 s, and stops once everything has ended', async () => {
    const table = new Map<number, WorkRequestResponse>([
      [ROOT, wr(ROOT, { task_type: 'Workflow', ...running, workflow_root: ROOT })],
      [101, step(101, running)],
    ]);
    const fake = server(table);
    const queryClient = new QueryClient();
    const context = { client: queryClient, queryKey: ['s', 'steps'] };
    const delays: (number | false)[] = [];
    for (let i = 0; i < 6; i++) {
      const data = await readWorkflowSteps(fake.client, ROOT, context);
      queryClient.setQueryData(context.queryKey, data);
      delays.push(stepsRefreshDelay(data));
    }
    expect(delays).toEqual([3_000, 4_000, 4_000, 4_000, 4_000, 4_000]);
    expect(LIVE_MAX_MS).toBe(4_000);
    // Something moves: back to the first delay.
    table.set(101, step(101, { status: 'completed', result: 'failure' }));
    const moved = await readWorkflowSteps(fake.client, ROOT, context);
    queryClient.setQueryData(context.queryKey, moved);
    expect(stepsRefreshDelay(moved)).toBe(LIVE_FIRST_MS);
    // The root ends aborted (its build failed): no more reads.
    table.set(ROOT, { ...table.get(ROOT), status: 'aborted', result: '' } as WorkRequestResponse);
    const ended = await readWorkflowSteps(fake.client, ROOT, context);
    expect(stepsRefreshDelay(ended)).toBe(false);
  });

  it('goes on reading, by id only, the steps an ended root left unfinished, until they end', async () => {
    const table = new Map<number, WorkRequestResponse>([
      [ROOT, wr(ROOT, { task_type: 'Workflow', ...running, workflow_root: ROOT })],
      [101, step(101, running)],
      [102, step(102, { status: 'blocked', result: '' })],
    ]);
    const fake = server(table);
    const queryClient = new QueryClient();
    const context = { client: queryClient, queryKey: ['s', 'steps'] };
    const read = async () => {
      const data = await readWorkflowSteps(fake.client, ROOT, context);
      queryClient.setQueryData(context.queryKey, data);
      return data;
    };
    await read();
    // The root ends while a step still shows blocked (the server aborts it a moment later).
    table.set(ROOT, { ...table.get(ROOT), status: 'aborted', result: '' } as WorkRequestResponse);
    table.set(101, step(101, { status: 'completed', result: 'failure' }));
    const last = await read();
    expect(stepsRefreshDelay(last)).toBe(LIVE_FIRST_MS);
    fake.calls.length = 0;
    table.set(102, step(102, { status: 'aborted', result: '' }));
    const ended = await read();
    expect(ended.steps.map((s) => [s.id, s.status]).sort()).toEqual([
      [101, 'completed'],
      [102, 'aborted'],
    ]);
    expect(stepsRefreshDelay(ended)).toBe(false);
    // The root and the one step left, by id: an ended workflow makes no new steps.
    expect(fake.calls.map((c) => [c.channel, c.args])).toEqual([
      ['workRequests.get', { id: ROOT }],
      ['workRequests.page', { ids: [102] }],
    ]);
  });

  it('reads without backoff while the server has not made the steps yet, for a minute at most', async () => {
    const table = new Map<number, WorkRequestResponse>([
      [ROOT, wr(ROOT, { task_type: 'Workflow', ...running, workflow_root: ROOT })],
    ]);
    const fake = server(table);
    const queryClient = new QueryClient();
    const context = { client: queryClient, queryKey: ['s', 'steps'] };
    const delays: (number | false)[] = [];
    for (let i = 0; i < EMPTY_READS + 2; i++) {
      const data = await readWorkflowSteps(fake.client, ROOT, context);
      queryClient.setQueryData(context.queryKey, data);
      delays.push(stepsRefreshDelay(data));
    }
    expect(delays.slice(0, EMPTY_READS)).toEqual(Array(EMPTY_READS).fill(LIVE_EMPTY_MS));
    expect(delays.at(-1)).toBe(LIVE_MAX_MS);
    // The steps arrive: the usual schedule from its start.
    table.set(101, step(101, running));
    const found = await readWorkflowSteps(fake.client, ROOT, context);
    expect(found.steps.map((s) => s.id)).toEqual([101]);
    expect(stepsRefreshDelay(found)).toBe(LIVE_FIRST_MS);
  });
});

describe("a sub-workflow's page", () => {
  it("shows its branch of the root's tree (steps name their root, not their parent)", async () => {
    const sub = wr(101, {
      task_type: 'Workflow',
      task_name: 'qa',
      parent: ROOT,
      workflow_root: ROOT,
    });
    const table = new Map<number, WorkRequestResponse>([
      [ROOT, wr(ROOT, { task_type: 'Workflow', workflow_root: ROOT })],
      [101, sub],
      [102, step(102, { parent: 101, task_name: 'lintian' })],
      [103, step(103, { parent: ROOT, task_name: 'sbuild' })],
    ]);
    const fake = server(table);
    render(
      <BridgeProvider client={fake.client}>
        <QueryClientProvider client={new QueryClient()}>
          <WorkflowSteps root={sub} />
        </QueryClientProvider>
      </BridgeProvider>,
    );
    const tree = await screen.findByRole('list', { name: 'Steps of workflow 101' });
    expect(tree.textContent).toContain('lintian');
    expect(tree.textContent).not.toContain('sbuild');
  });
});
