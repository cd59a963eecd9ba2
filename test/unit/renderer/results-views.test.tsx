// @vitest-environment happy-dom
/**
 * A work request's results by kind, on the artifacts real tasks produced: the binary
 * packages' table, lintian's counts and its filterable tags, autopkgtest's tests, and the
 * build log's summary whose "Open log" opens the viewer at the line where the build broke.
 * A server's text is shown as text, never as markup.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { WorkRequestResults } from '@renderer/screens/work-requests/results';
import { useUiStore } from '@renderer/state/ui-store';
import type {
  ArtifactResponse,
  FailureReason,
  LintianTags,
  WorkRequestResponse,
} from '@shared/contract';
import { parseLintianAnalysis } from '@shared/results/lintian';
import { SERVER_A } from './support/server-a';
import { WEB_HOST_INFO, fakeBridge, type FakeHandlers } from './support/fake-bridge';
import a405 from '../fixtures/real-work/artifact-405.json';
import a406 from '../fixtures/real-work/artifact-406.json';
import a407 from '../fixtures/real-work/artifact-407.json';
import a408 from '../fixtures/real-work/artifact-408.json';
import a409 from '../fixtures/real-work/artifact-409.json';
import a410 from '../fixtures/real-work/artifact-410.json';
import a413 from '../fixtures/real-work/artifact-413.json';
import a415 from '../fixtures/real-work/artifact-415.json';
import a418 from '../fixtures/real-work/artifact-418.json';
import a420 from '../fixtures/real-work/artifact-420.json';
import a424 from '../fixtures/real-work/artifact-424.json';
import analysisJson from '../fixtures/real-work/lintian-analysis.json';
import { workRequestFixture } from '../../support/work-requests';

/** The real artifacts, as the server answered (copied, so that no test changes another's). */
const FIXTURES: Record<number, unknown> = {
  405: a405,
  406: a406,
  407: a407,
  408: a408,
  409: a409,
  410: a410,
  413: a413,
  415: a415,
  418: a418,
  420: a420,
  424: a424,
};
const artifact = (id: number): ArtifactResponse => {
  const found = FIXTURES[id];
  if (found === undefined) throw new Error(`no fixture for artifact ${String(id)}`);
  return structuredClone(found) as ArtifactResponse;
};
const ANALYSIS = JSON.stringify(analysisJson);

function workRequest(ids: number[], result = 'success'): WorkRequestResponse {
  return workRequestFixture(77, { result, task_name: 'sbuild', duration: 42, artifacts: ids });
}

/** What the viewer is asked to open: `path` of the artifact, for work request 77, here. */
function openedLog(artifactId: number, path: string, line: number | null) {
  return { kind: 'log', server: SERVER_A.id, artifactId, path, line, workRequestId: 77 };
}

function show(wr: WorkRequestResponse, handlers: FakeHandlers = {}, served = artifact) {
  const fake = fakeBridge({
    'servers.active': () => SERVER_A,
    'artifacts.get': ({ id }) => served(id),
    ...handlers,
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <BridgeProvider client={fake.client}>
      <QueryClientProvider client={client}>
        <WorkRequestResults wr={wr} />
      </QueryClientProvider>
    </BridgeProvider>,
  );
  return fake;
}

const tagsOf = (text: string): LintianTags => {
  const tags = parseLintianAnalysis(text);
  return { artifactId: 415, tags, total: tags.length };
};

beforeEach(() => {
  useUiStore.setState({ detail: null });
});
afterEach(cleanup);

describe('the results of a build', () => {
  it('lists the binary packages with their versions, architectures and a download each', async () => {
    show(workRequest([407, 408, 409]));
    const rows = await screen.findAllByTestId('binary-package-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toMatch(/ddt-hello.*1\.0.*amd64/);
    expect(rows[1]?.textContent).toMatch(/ddt-hello-dbgsym.*\(debug symbols\)/);
    expect(screen.getByRole('button', { name: 'Download ddt-hello_1.0_amd64.deb' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Download all \.debs/ })).toBeTruthy();
  });

  it("downloads a .deb through downloads.save, naming the page's server", async () => {
    useUiStore.setState({ detail: { kind: 'work-request', server: SERVER_A.id, id: 77 } });
    const fake = show(workRequest([408]), {
      'downloads.save': (args) => ({
        savedBy: 'browser',
        name: args.what === 'file' ? args.path : '',
      }),
    });
    fireEvent.click(
      await screen.findByRole('button', { name: 'Download ddt-hello_1.0_amd64.deb' }),
    );
    await screen.findByText('Handed ddt-hello_1.0_amd64.deb to the browser.');
    expect(fake.calls.filter((c) => c.channel === 'downloads.save')).toEqual([
      {
        channel: 'downloads.save',
        args: {
          what: 'file',
          server: SERVER_A.id,
          artifactId: 408,
          path: 'ddt-hello_1.0_amd64.deb',
        },
      },
    ]);
  });

  it('downloads all .debs into one folder where the host has one to choose', async () => {
    useUiStore.setState({ detail: { kind: 'work-request', server: SERVER_A.id, id: 77 } });
    const fake = show(workRequest([407, 408, 409]), {
      'app.info': () => ({
        ...WEB_HOST_INFO,
        capabilities: { ...WEB_HOST_INFO.capabilities, saveDownload: 'dialog' },
      }),
      'downloads.save': () => ({ savedBy: 'app', destination: 'debs', jobs: [] }),
    });
    const all = await screen.findByRole('button', { name: /Download all \.debs/ });
    // Offered once the host has said how it saves several files.
    await waitFor(() => {
      expect(all).toHaveProperty('disabled', false);
    });
    fireEvent.click(all);
    await screen.findByText('Downloading 2 artifacts to debs…');
    expect(fake.calls.filter((c) => c.channel === 'downloads.save')).toEqual([
      {
        channel: 'downloads.save',
        args: { what: 'folder', server: SERVER_A.id, artifactIds: [408, 407] },
      },
    ]);
  });

  it("shows lintian's counts as chips, and its tags, filtered by text and severity", async () => {
    show(workRequest([415]), { 'results.lintianTags': () => tagsOf(ANALYSIS) });
    expect((await screen.findAllByTestId('lintian-classification'))[0]?.textContent).toBe(
      '31 classification',
    );
    expect(screen.getAllByTestId('lintian-error')[0]?.textContent).toBe('0 error');
    const all = await screen.findAllByTestId('lintian-tag-row');
    expect(all.length).toBe(tagsOf(ANALYSIS).total);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'tarball-compression' } });
    const kept = screen.getAllByTestId('lintian-tag-row').map((r) => r.textContent);
    expect(kept).toHaveLength(4);
    expect(kept.every((t) => /(control|data)-tarball-compression-format/.test(t))).toBe(true);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'ddt-hello-dbgsym' } });
    expect(
      screen.getAllByTestId('lintian-tag-row').every((r) => r.textContent.includes('dbgsym')),
    ).toBe(true);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'error' } });
    expect(screen.queryAllByTestId('lintian-tag-row')).toHaveLength(0);
    expect(screen.getByText('No tag matches.')).toBeTruthy();
  });

  it("shows a tag's note that holds HTML as text", async () => {
    const hostile = JSON.stringify({
      tags: [
        {
          severity: 'warning',
          package: 'p',
          tag: 't',
          note: '<img src=x onerror="alert(1)"><b>bold</b>',
        },
      ],
    });
    show(workRequest([415]), { 'results.lintianTags': () => tagsOf(hostile) });
    const row = await screen.findByTestId('lintian-tag-row');
    expect(row.querySelector('img, b')).toBeNull();
    expect(row.textContent).toContain('<img src=x onerror="alert(1)"><b>bold</b>');
  });

  it("says what went wrong when lintian's tags cannot be read, and keeps the counts", async () => {
    show(workRequest([415]), {
      'results.lintianTags': () => {
        throw new Error("Artifact 415's analysis.json: tags.0.tag: expected string");
      },
    });
    expect(await screen.findByText(/tags\.0\.tag: expected string/)).toBeTruthy();
    expect(screen.getAllByTestId('lintian-classification')[0]?.textContent).toBe(
      '31 classification',
    );
  });

  it("lists autopkgtest's tests with their results, and opens its log", async () => {
    show(workRequest([413]));
    const row = await screen.findByTestId('autopkgtest-row');
    expect(within(row).getByText('greets')).toBeTruthy();
    expect(within(row).getByText('PASS')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open log log' }));
    expect(useUiStore.getState().detail).toEqual(openedLog(413, 'log', null));
  });

  it('summarizes a failed build with its error line, and opens the log at that line', async () => {
    const reason: FailureReason = {
      workRequestId: 77,
      what: 'sbuild ddt-broken 1.0 amd64',
      why: 'build: make: *** [debian/rules:4: binary] Error 1',
      log: { artifactId: 424, path: 'ddt-broken_1.0_amd64-2026-11-24T03:15:53Z.build', line: 123 },
    };
    const fake = show(workRequest([424], 'failure'), {
      'workRequests.explainFailure': () => reason,
    });
    expect((await screen.findByTestId('build-log-error')).textContent).toBe(reason.why);
    expect(screen.getByTestId('build-log-424').textContent).toMatch(/ddt-broken 1\.0 \(amd64\)/);
    // The label counts lines from 1, as the viewer shows them; the line opened, from 0.
    fireEvent.click(screen.getByRole('button', { name: 'Open log at line 124' }));
    expect(useUiStore.getState().detail).toEqual(
      openedLog(424, 'ddt-broken_1.0_amd64-2026-11-24T03:15:53Z.build', 123),
    );
    expect(fake.calls.filter((c) => c.channel === 'workRequests.explainFailure')).toHaveLength(1);
  });

  it('does not ask why a successful build failed, and opens its log at the top', async () => {
    const fake = show(workRequest([406]));
    fireEvent.click(await screen.findByRole('button', { name: 'Open log' }));
    expect(useUiStore.getState().detail).toMatchObject({ artifactId: 406, line: null });
    expect(fake.calls.some((c) => c.channel === 'workRequests.explainFailure')).toBe(false);
  });

  it('offers the text files of piuparts, blhc and debug logs in the viewer, and lists upload files', async () => {
    show(workRequest([405, 410, 418, 420]));
    expect(await screen.findByTestId('results-piuparts')).toBeTruthy();
    const blhc = screen.getByTestId('results-blhc');
    const openers = within(blhc).getAllByRole('button', { name: /^Open / });
    expect(openers.length).toBeGreaterThan(0);
    fireEvent.click(
      within(screen.getByTestId('results-debug-logs')).getByRole('button', {
        name: 'Open cmd-output.log',
      }),
    );
    expect(useUiStore.getState().detail).toMatchObject({ artifactId: 405, path: 'cmd-output.log' });
    expect(screen.getByTestId('results-upload').textContent).toMatch(/\.changes/);
  });

  it('survives hostile artifact data: wrong types everywhere still render', async () => {
    const hostile = (id: number): ArtifactResponse => ({
      ...artifact(id),
      data: {
        deb_fields: 'nope',
        results: [1, 2],
        summary: { tags_count_by_severity: { error: 'many', warning: -3 } },
        filename: 42,
        source: { evil: true },
      },
    });
    show(
      workRequest([406, 407, 413, 415]),
      { 'results.lintianTags': () => ({ artifactId: 415, tags: [], total: 0 }) },
      hostile,
    );
    expect((await screen.findAllByTestId('binary-package-row'))[0]?.textContent).toMatch(/—/);
    expect(screen.getAllByTestId('lintian-error')[0]?.textContent).toBe('0 error');
    expect(screen.getAllByTestId('lintian-warning')[0]?.textContent).toBe('0 warning');
    expect(screen.getByText('The artifact names no test result.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open log' })).toBeTruthy();
  });
});
