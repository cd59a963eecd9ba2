// @vitest-environment happy-dom
/**
 * A workflow's page matches the server within 5 s of any change of any of its steps,
 * whatever the step's task type and however deep it is, also for the changes the
 * completion websocket never tells: a step unblocked or starting to run, a step or the
 * root aborted. The app is the real one from main's events down (queries/events.ts, the
 * work request screen and its pages, the app's own query defaults), over a server whose
 * table the test moves along as Debusine does for debian_pipeline's upload-to-unstable:
 * the build and QA done, a Wait step (externaldebsign) under the package_upload
 * sub-workflow waiting for the signature, and the Server step that uploads (packageupload)
 * blocked behind it.
 */
import { focusManager, type QueryClient } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useViewsStore } from '@renderer/screens/work-requests/views-store';
import { useUiStore } from '@renderer/state/ui-store';
import type { ArtifactResponse, SigningKey, WorkRequestResponse } from '@shared/contract';
import { fakeTimersInEachTest } from '../../support/fake-timers';
import { workRequestFixture } from '../../support/work-requests';
import a410 from '../fixtures/real-work/artifact-410.json';
import { SERVER_A } from './support/server-a';
import { showWorkRequests, wait } from './support/live-screen';
import { tableBridge, type TableBridge } from './support/table-bridge';
import { reviewFixture } from './support/signing-review';

const ROOT = 100;
const UPLOAD = 410;
const TARGET = 'ftp://anonymous@127.0.0.1:18021/incoming/';
const KEY: SigningKey = {
  fingerprint: 'A260D2A9F365017140BDDDD2CAEBED84A203F49A',
  keyId: 'CAEBED84A203F49A',
  userIds: ['Me <me@example.org>'],
};

/** What the requirement allows between a change on the server and the page showing it. */
const WITHIN_MS = 5_000;

const at = (seconds: number): string =>
  new Date(Date.UTC(2026, 10, 28, 10, 0, 0) + seconds * 1000).toISOString();
const running = { status: 'running', result: '', completed_at: null } as const;
const blocked = { status: 'blocked', result: '', completed_at: null } as const;
const succeeded = { status: 'completed', result: 'success', completed_at: at(900) } as const;
const aborted = { status: 'aborted', result: '', completed_at: at(900) } as const;

function node(id: number, fields: Partial<WorkRequestResponse>): WorkRequestResponse {
  return workRequestFixture(id, {
    created_at: at(id - ROOT),
    parent: ROOT,
    workflow_root: ROOT,
    created_by: 2,
    ...fields,
  });
}

/** upload-to-unstable once QA has passed: it waits for the uploader's signature. */
function pipeline(): WorkRequestResponse[] {
  const workflow = (id: number, name: string, fields: Partial<WorkRequestResponse>) =>
    node(id, { task_type: 'Workflow', task_name: name, ...fields });
  return [
    workflow(ROOT, 'debian_pipeline', { parent: null, ...running }),
    workflow(101, 'sbuild', succeeded),
    node(102, { parent: 101, task_name: 'sbuild', ...succeeded }),
    workflow(103, 'qa', succeeded),
    node(104, { parent: 103, task_name: 'autopkgtest', ...succeeded }),
    node(105, { parent: 103, task_name: 'lintian', ...succeeded }),
    node(106, { parent: 103, task_name: 'piuparts', ...succeeded }),
    node(107, { parent: 103, task_name: 'blhc', ...succeeded }),
    workflow(108, 'package_upload', running),
    node(109, {
      parent: 108,
      task_type: 'Wait',
      task_name: 'externaldebsign',
      task_data: { unsigned: 409 },
      workflow_data: { needs_input: true },
      ...running,
    }),
    node(110, {
      parent: 108,
      task_type: 'Server',
      task_name: 'packageupload',
      task_data: { target: TARGET, input: { upload: 409 } },
      ...blocked,
    }),
  ];
}

/**
 * Other people's work, started after the workflow and running: on a busy server the list's
 * first pages hold such rows, and the workflow's steps further down.
 */
function othersWork(): WorkRequestResponse[] {
  return Array.from({ length: 30 }, (_, i) =>
    workRequestFixture(200 + i, {
      created_at: at(300 + i),
      task_name: 'sbuild',
      created_by: 7,
      ...running,
    }),
  );
}

/** The server behind the window; "Sign and upload" does what main and the server do. */
function serve(busy = false): TableBridge {
  const server: TableBridge = tableBridge([...pipeline(), ...(busy ? othersWork() : [])], {
    'artifacts.get': ({ id }) => {
      if (id !== UPLOAD) throw new Error(`no artifact ${String(id)}`);
      return structuredClone({ ...a410, id: UPLOAD }) as unknown as ArtifactResponse;
    },
    'signing.available': () => ({ available: true, debsign: true, gpg: true, message: null }),
    'signing.keyChoice': () => ({
      review: reviewFixture(),
      named: [KEY],
      keys: [KEY],
      reason: 'Changed-By of the .changes: tests@example.org',
    }),
    'workRequests.abort': ({ id }) => {
      // A workflow aborts with the steps that have not ended, none of which the server
      // sends a message for; main says the work request acted on changed.
      const under = (wr: WorkRequestResponse) => wr.id === id || wr.workflow_root === id;
      for (const wr of server.table.values()) {
        if (under(wr) && !['completed', 'aborted'].includes(wr.status))
          server.update(wr.id, aborted);
      }
      server.emit('workRequests.changed', { ids: [id] });
      const done = server.table.get(id);
      if (!done) throw new Error('no work request');
      return done;
    },
    'signing.signAndComplete': ({ workRequestId }) => {
      // The step completes with the signed upload and the upload step is unblocked; the
      // server sends the step's completion, and main says it changed (service/signing.ts).
      server.update(workRequestId, { ...succeeded, completed_at: at(800) });
      server.update(110, { status: 'pending' });
      const step = server.table.get(workRequestId);
      if (!step) throw new Error('no step');
      setTimeout(() => {
        server.emit('workRequests.changed', { ids: [workRequestId] });
        server.completed(workRequestId);
      }, 50);
      return {
        status: 'signed',
        workRequest: step,
        signedArtifactId: 411,
        key: KEY,
        keyReason: 'the only key',
      };
    },
  });
  return server;
}

let queryClient: QueryClient;

function show(server: TableBridge): void {
  queryClient = showWorkRequests(server);
}

function openPage(id: number): void {
  act(() => {
    useUiStore.getState().openWorkRequest(SERVER_A.id, id);
  });
}

function openList(): void {
  act(() => {
    useUiStore.getState().navigate('work-requests');
    useViewsStore.getState().setTab('list');
  });
}

/** How the page's summary counts the workflow's tasks ("7 tasks 5 succeeded 1 running"). */
const counts = (): string | null => screen.getByLabelText('Its tasks').textContent;
const stepText = (id: number): string | null =>
  screen.getByTestId(`step-${String(id)}`).textContent;
const headStatus = (): string | null => screen.getByTestId('wr-page-status').textContent;

/** Opens the tree's branch of `name` #`id` for good (a branch left alone follows what runs). */
function keepOpen(name: string, id: number): void {
  const label = `${name} #${String(id)}`;
  const collapse = screen.queryByRole('button', { name: `Collapse ${label}` });
  if (collapse) fireEvent.click(collapse);
  fireEvent.click(screen.getByRole('button', { name: `Expand ${label}` }));
}

fakeTimersInEachTest();

beforeEach(() => {
  focusManager.setFocused(undefined);
});

afterEach(() => {
  cleanup();
  queryClient.clear();
  act(() => {
    useUiStore.getState().navigate('work-requests');
  });
});

describe("a workflow's page, live", () => {
  it('shows a deep Wait step and a Server step completed, and where the upload went, after signing from the step and coming back through the list', async () => {
    const server = serve(true);
    show(server);
    openList();
    await wait(1_000);
    openPage(ROOT);
    await wait(2_000);
    expect(counts()).toBe('7 tasks 5 succeeded 1 running 1 blocked');
    // The signature is asked for; the user comes to it after a while.
    await wait(2 * 60_000);
    openPage(109);
    await wait(1_000);
    fireEvent.click(
      within(screen.getByTestId('waiting-step')).getByRole('button', { name: 'Sign and upload' }),
    );
    await wait(1_000);
    expect(screen.getByTestId('wr-page-status').textContent).toBe('Success');
    // The upload step starts (no message for that), uploads and completes; then its
    // sub-workflow and the root: the server sends each completion.
    server.update(110, { ...running, dynamic_task_data: { input_upload_id: UPLOAD } });
    await wait(2_000);
    for (const id of [110, 108, ROOT]) {
      server.update(id, succeeded);
      server.completed(id);
    }
    await wait(1_000);
    // Back to the list, then to the workflow, without a reload.
    openList();
    await wait(2_000);
    openPage(ROOT);
    await wait(WITHIN_MS);
    expect(headStatus()).toBe('Success');
    expect(counts()).toBe('7 tasks 7 succeeded');
    expect(stepText(108)).toContain('Success');
    expect(screen.getByTestId('upload-summary').textContent).toBe(`Uploaded 4 files to ${TARGET}`);
  });

  it('shows the steps that complete while it is open, at any depth and of any task type', async () => {
    const server = serve();
    show(server);
    openPage(ROOT);
    await wait(2_000);
    keepOpen('package_upload', 108);
    await wait(3 * 60_000);
    server.update(109, succeeded);
    server.update(110, { status: 'pending' });
    server.completed(109);
    await wait(WITHIN_MS);
    expect(stepText(109)).toContain('Success');
    expect(stepText(110)).toContain('Pending');
    server.update(110, { ...succeeded, dynamic_task_data: { input_upload_id: UPLOAD } });
    server.completed(110);
    await wait(WITHIN_MS);
    expect(counts()).toBe('7 tasks 7 succeeded');
    expect(screen.getByTestId('upload-summary').textContent).toBe(`Uploaded 4 files to ${TARGET}`);
  });

  it('shows an aborted root and its aborted steps, which no message tells, within 5 s', async () => {
    const server = serve();
    show(server);
    openPage(ROOT);
    await wait(2_000);
    // Nothing moves for minutes: the page must not have slowed down past the bound.
    await wait(3 * 60_000);
    for (const id of [109, 110, 108, ROOT]) server.update(id, aborted);
    await wait(WITHIN_MS);
    expect(headStatus()).toBe('Aborted');
    expect(counts()).toBe('7 tasks 5 succeeded 2 aborted');
    expect(stepText(108)).toContain('Aborted');
  });

  it('shows a step aborted while the root runs, which no message tells, within 5 s', async () => {
    const server = serve();
    show(server);
    openPage(ROOT);
    await wait(2_000);
    keepOpen('package_upload', 108);
    await wait(3 * 60_000);
    server.update(110, aborted);
    await wait(WITHIN_MS);
    expect(stepText(110)).toContain('Aborted');
    expect(headStatus()).toBe('Running');
  });

  it('shows a step unblocked, then running, which no message tells, within 5 s each', async () => {
    const server = serve();
    show(server);
    openPage(ROOT);
    await wait(2_000);
    keepOpen('package_upload', 108);
    await wait(3 * 60_000);
    server.update(110, { status: 'pending' });
    await wait(WITHIN_MS);
    expect(stepText(110)).toContain('Pending');
    server.update(110, running);
    await wait(WITHIN_MS);
    expect(stepText(110)).toContain('Running');
    expect(counts()).toBe('7 tasks 5 succeeded 2 running');
  });
});

describe('acting on a workflow', () => {
  it('reads its tree again at once: aborting the root shows its steps aborted', async () => {
    const server = serve();
    show(server);
    openPage(ROOT);
    await wait(2_000);
    keepOpen('package_upload', 108);
    await wait(60_000);
    fireEvent.click(screen.getByRole('button', { name: 'Abort…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Abort', hidden: true }));
    // Sooner than the tree's own timer would read it again.
    await wait(1_000);
    expect(headStatus()).toBe('Aborted');
    expect(stepText(109)).toContain('Aborted');
    expect(stepText(110)).toContain('Aborted');
    expect(counts()).toBe('7 tasks 5 succeeded 2 aborted');
  });
});

describe("what a live workflow's page costs the server", () => {
  /** The reads of the workflow: its root, and the list (the top, and steps by id). */
  const reads = (server: TableBridge): number =>
    server.callsOf('workRequests.get').length + server.callsOf('workRequests.page').length;

  it('reads the tree once per interval, not once per step, and stops once everything shown has ended', async () => {
    const server = serve();
    show(server);
    openPage(ROOT);
    await wait(2_000);
    server.calls.length = 0;
    await wait(60_000);
    // Each read: the root, the top of the list, the unfinished steps by id (one page).
    const perRead = 3;
    expect(server.callsOf('workRequests.get').length).toBeGreaterThanOrEqual(60_000 / 4_000);
    expect(reads(server)).toBeLessThanOrEqual(perRead * (60_000 / 3_000 + 1));
    // A completion elsewhere reads nothing of this workflow.
    server.table.set(
      500,
      workRequestFixture(500, { created_at: at(1000), workflow_root: 499, parent: 499 }),
    );
    server.calls.length = 0;
    server.completed(500);
    await wait(500);
    expect(server.callsOf('workRequests.page')).toEqual([]);
    // The reports of one moment in this workflow (its step, sub-workflow and root, as main
    // sends them) make one read of the tree, and one of the root's page.
    await wait(4_000);
    server.calls.length = 0;
    for (const id of [109, 108, ROOT]) server.completed(id);
    await wait(1_000);
    expect(server.callsOf('workRequests.get')).toEqual([{ id: ROOT }, { id: ROOT }]);
    // Everything ends: one last read, then none.
    for (const id of [109, 110, 108, ROOT]) server.update(id, succeeded);
    await wait(WITHIN_MS);
    expect(headStatus()).toBe('Success');
    server.calls.length = 0;
    await wait(60_000);
    expect(reads(server)).toBe(0);
  });

  it('reads nothing while the window is hidden, and shows what changed within 5 s of it being shown again', async () => {
    const server = serve();
    show(server);
    openPage(ROOT);
    await wait(2_000);
    act(() => {
      focusManager.setFocused(false);
    });
    server.calls.length = 0;
    await wait(60_000);
    expect(reads(server)).toBe(0);
    server.update(110, { status: 'pending' });
    act(() => {
      focusManager.setFocused(true);
    });
    await wait(WITHIN_MS);
    expect(stepText(110)).toContain('Pending');
  });
});
