// @vitest-environment happy-dom
/**
 * A workflow's page sums up its steps, on the artifacts real tasks produced: how its tasks
 * stand, the binary packages, lintian's counts, the build log's summary, and where its
 * upload went; a few steps at a time, reading the artifacts of those shown only.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import {
  SUMMARY_STEPS_PAGE,
  WorkflowSummary,
} from '@renderer/screens/work-requests/workflow-summary';
import type { ArtifactResponse, WorkRequestResponse } from '@shared/contract';
import { uploadTarget } from '@shared/results/upload';
import { SERVER_A } from './support/server-a';
import { fakeBridge } from './support/fake-bridge';
import a405 from '../fixtures/real-work/artifact-405.json';
import a406 from '../fixtures/real-work/artifact-406.json';
import a407 from '../fixtures/real-work/artifact-407.json';
import a408 from '../fixtures/real-work/artifact-408.json';
import a410 from '../fixtures/real-work/artifact-410.json';
import a415 from '../fixtures/real-work/artifact-415.json';
import a416 from '../fixtures/real-work/artifact-416.json';
import { workRequestFixture } from '../../support/work-requests';

const FIXTURES: Record<number, unknown> = {
  405: a405,
  406: a406,
  407: a407,
  408: a408,
  410: a410,
  415: a415,
  416: a416,
};

const ROOT = 1;

function wr(id: number, extra: Partial<WorkRequestResponse>): WorkRequestResponse {
  return workRequestFixture(id, {
    parent: ROOT,
    workflow_root: ROOT,
    duration: 12,
    created_at: '2026-11-26T03:00:00Z',
    completed_at: '2026-11-26T03:05:00Z',
    ...extra,
  });
}

const root = wr(ROOT, { task_type: 'Workflow', task_name: 'debian_pipeline', parent: null });

function show(steps: WorkRequestResponse[], top = root) {
  const fake = fakeBridge({
    'servers.active': () => SERVER_A,
    'workRequests.get': () => top,
    'workRequests.page': () => ({ items: [...steps, root], nextCursor: null, creators: {} }),
    'artifacts.get': ({ id }) => {
      const found = FIXTURES[id];
      if (found === undefined) throw new Error(`no artifact ${String(id)}`);
      return structuredClone(found) as ArtifactResponse;
    },
    'workRequests.explainFailure': () => null,
  });
  render(
    <BridgeProvider client={fake.client}>
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <WorkflowSummary root={top} />
      </QueryClientProvider>
    </BridgeProvider>,
  );
  return fake;
}

afterEach(cleanup);

describe("a workflow's summary", () => {
  it('shows its build, packages, lintian counts and where its upload went', async () => {
    show([
      wr(2, { task_type: 'Workflow', task_name: 'sbuild' }),
      wr(3, {
        task_name: 'sbuild',
        parent: 2,
        artifacts: [405, 406, 407, 408, 410],
        workflow_data: { display_name: 'Build amd64' },
      }),
      wr(4, { task_name: 'lintian', artifacts: [415, 416] }),
      wr(5, { task_name: 'autopkgtest', status: 'aborted', result: '' }),
      wr(6, {
        task_type: 'Server',
        task_name: 'packageupload',
        task_data: { target: 'ftp://anonymous:s3cret@127.0.0.1:18021/incoming/' },
        dynamic_task_data: { input_upload_id: 410 },
      }),
    ]);
    const summary = await screen.findByTestId('workflow-summary');
    // Four tasks (the sbuild sub-workflow is not one): 3 succeeded, 1 aborted.
    await screen.findByTestId('step-results-3');
    expect(within(summary).getByLabelText('Its tasks').textContent).toBe(
      '4 tasks 3 succeeded 1 aborted',
    );
    const build = within(screen.getByTestId('step-results-3'));
    expect(build.getByText('Build amd64')).toBeTruthy();
    await build.findByTestId('results-build-log');
    expect(build.getByRole('button', { name: 'Open log' })).toBeTruthy();
    const rows = await build.findAllByTestId('binary-package-row');
    expect(rows.map((r) => r.querySelector('td')?.textContent).sort()).toEqual([
      'ddt-hello',
      'ddt-hello-dbgsym (debug symbols)',
    ]);
    // The rest of the build's results are named, to be read on its page.
    expect(build.getByText(/Also: Upload, Debug logs, on the step's page\./)).toBeTruthy();
    // Lintian: its counts per artifact, as the server counted them; not its tags.
    const lintian = within(screen.getByTestId('step-results-4'));
    await lintian.findAllByTestId('lintian-error');
    const counts = (a: { data: unknown }) =>
      (a.data as { summary: { tags_count_by_severity: Record<string, number> } }).summary
        .tags_count_by_severity;
    expect(lintian.getAllByTestId('lintian-warning').map((c) => c.textContent)).toEqual(
      [a415, a416].map((a) => `${String(counts(a).warning ?? 0)} warning`),
    );
    expect(lintian.queryByRole('table', { name: 'Lintian tags' })).toBeNull();
    // The upload: its target without the password, and the files of the upload it sent.
    const upload = await screen.findByTestId('upload-6');
    await within(upload).findByText(/^Uploaded 4 files to /);
    expect(within(upload).getByTestId('upload-summary').textContent).toBe(
      'Uploaded 4 files to ftp://anonymous@127.0.0.1:18021/incoming/',
    );
    expect(document.body.textContent).not.toContain('s3cret');
    expect(document.body.textContent).not.toContain('None created');
    // The aborted step made nothing: it is counted, not listed.
    expect(screen.queryByTestId('step-results-5')).toBeNull();
  });

  it('shows a few steps at a time, and reads the artifacts of those shown only', async () => {
    const many = Array.from({ length: 20 }, (_, i) =>
      wr(10 + i, { task_name: 'lintian', artifacts: [415] }),
    );
    const fake = show(many);
    await screen.findByTestId('step-results-10');
    await screen.findAllByTestId('lintian-error');
    expect(screen.getAllByTestId(/^step-results-/)).toHaveLength(SUMMARY_STEPS_PAGE);
    expect(screen.getByText('12 more steps with results')).toBeTruthy();
    const read = () => fake.calls.filter((c) => c.channel === 'artifacts.get').length;
    expect(read()).toBe(SUMMARY_STEPS_PAGE);
    fireEvent.click(
      screen.getByRole('button', { name: `Show ${String(SUMMARY_STEPS_PAGE)} more` }),
    );
    expect(screen.getAllByTestId(/^step-results-/)).toHaveLength(2 * SUMMARY_STEPS_PAGE);
    expect(screen.getByText('4 more steps with results')).toBeTruthy();
  });

  it('says so while no step has made results yet', async () => {
    const running = { status: 'running', result: '', completed_at: null };
    show([wr(2, { task_name: 'sbuild', ...running })], { ...root, ...running });
    expect((await screen.findByTestId('workflow-summary')).textContent).toContain(
      'No step has made results yet',
    );
  });
});

describe("an upload's target", () => {
  it.each([
    [{ target: 'ftp://127.0.0.1:18021/incoming/' }, 'ftp://127.0.0.1:18021/incoming/'],
    [{ target: 'sftp://me:pw@host/queue', delayed_days: 3 }, 'sftp://me@host/queue/DELAYED/3-day'],
    [{ target: 'not a url' }, null],
    [{ target: 42 }, null],
    [{}, null],
  ])('%j → %j', (data, shown) => {
    expect(uploadTarget(data)).toBe(shown);
  });
});
