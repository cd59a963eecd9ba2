// @vitest-environment happy-dom
/**
 * The workflow tree says why: a failed step shows its one-line reason (asked of main for
 * failed steps only), and clicking it opens the log at the line that shows it.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { FailureLine } from '@renderer/screens/work-requests/failure-line';
import { WorkflowSteps } from '@renderer/screens/work-requests/workflow-tree';
import { useUiStore } from '@renderer/state/ui-store';
import type { FailureReason, WorkRequestResponse } from '@shared/contract';
import { SERVER_A } from './support/server-a';
import { fakeBridge } from './support/fake-bridge';

function wr(id: number, result: string, parent: number | null): WorkRequestResponse {
  return {
    id,
    status: 'completed',
    result,
    task_name: id === 10 ? 'sbuild' : 'lintian',
    task_type: id === 1 ? 'Workflow' : 'Worker',
    workspace: 'System',
    task_data: {},
    parent,
    workflow_root: 1,
    artifacts: [],
    duration: 5,
  } as unknown as WorkRequestResponse;
}

const REASON: FailureReason = {
  workRequestId: 10,
  what: 'sbuild ddt-broken 1.0 amd64',
  why: 'build: make: *** [debian/rules:4: binary] Error 1',
  log: { artifactId: 424, path: 'ddt-broken.build', line: 57 },
};

afterEach(cleanup);

describe('failed steps in the tree', () => {
  it('show their reason, asked for failed steps only, and open the log at its line', async () => {
    const fake = fakeBridge({
      'servers.active': () => SERVER_A,
      'workRequests.page': () => ({
        items: [wr(11, 'success', 1), wr(10, 'failure', 1), wr(1, 'failure', null)],
        nextCursor: null,
        creators: {},
      }),
      'workRequests.explainFailure': ({ id }) => (id === 10 ? REASON : null),
      // The steps are read with their root, which says whether to read them again.
      'workRequests.get': () => wr(1, 'failure', null),
    });
    render(
      <BridgeProvider client={fake.client}>
        <QueryClientProvider client={new QueryClient()}>
          <WorkflowSteps root={wr(1, 'failure', null)} />
        </QueryClientProvider>
      </BridgeProvider>,
    );
    const reason = await screen.findByTestId('failure-10');
    expect(reason.textContent).toBe(REASON.why);
    // Its title names the line as the viewer numbers it (from 1), the line it opens below.
    expect(reason.getAttribute('title')).toBe('Open ddt-broken.build at line 58');
    expect(
      fake.calls.filter((c) => c.channel === 'workRequests.explainFailure').map((c) => c.args),
    ).toEqual([{ id: 10 }]);
    fireEvent.click(reason);
    expect(useUiStore.getState().detail).toEqual({
      kind: 'log',
      server: SERVER_A.id,
      artifactId: 424,
      path: 'ddt-broken.build',
      line: 57,
      workRequestId: 10,
    });
  });

  it("says on a workflow's row which step failed, at which stage, and why", async () => {
    const fake = fakeBridge({
      'servers.active': () => SERVER_A,
      'workRequests.explainFailure': () => REASON,
    });
    render(
      <BridgeProvider client={fake.client}>
        <QueryClientProvider client={new QueryClient()}>
          <FailureLine wr={wr(1, 'failure', null)} where />
          <FailureLine wr={wr(11, 'success', 1)} where />
        </QueryClientProvider>
      </BridgeProvider>,
    );
    expect((await screen.findByTestId('failure-1')).textContent).toBe(
      'sbuild ddt-broken 1.0 amd64 — build — make: *** [debian/rules:4: binary] Error 1',
    );
    expect(screen.queryByTestId('failure-11')).toBeNull();
    expect(fake.calls.filter((c) => c.channel === 'workRequests.explainFailure')).toEqual([
      { channel: 'workRequests.explainFailure', args: { id: 1 } },
    ]);
  });

  it('says on an aborted workflow (its result empty) that it was aborted after its step failed', async () => {
    const fake = fakeBridge({
      'servers.active': () => SERVER_A,
      'workRequests.explainFailure': () => REASON,
    });
    const aborted = { ...wr(1, '', null), status: 'aborted' };
    const { container } = render(
      <BridgeProvider client={fake.client}>
        <QueryClientProvider client={new QueryClient()}>
          <p>
            <FailureLine wr={aborted} where />
          </p>
        </QueryClientProvider>
      </BridgeProvider>,
    );
    await screen.findByTestId('failure-1');
    expect(container.textContent).toBe(
      'Aborted after step #10 failed: sbuild ddt-broken 1.0 amd64 — build — make: *** [debian/rules:4: binary] Error 1',
    );
  });
});
