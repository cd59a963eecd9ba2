// @vitest-environment happy-dom
/**
 * The Workflows tab: each row's step counts and last activity once its tree is read, the
 * web UI's facets (the status asked of the server, the others told over the loaded
 * workflows and said to be), the same view opened in the web UI on the active server, and
 * facets kept when the tab is left and shown again. A hostile creator or template name
 * breaks neither the list nor the link.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { serverQueries } from '@renderer/queries/servers';
import { WorkflowList } from '@renderer/screens/work-requests/workflows';
import { useViewsStore } from '@renderer/screens/work-requests/views-store';
import type {
  RequestArgs,
  RequestChannel,
  ServerSummary,
  WorkRequestPage,
  WorkRequestResponse,
} from '@shared/contract';
import { NO_WORKFLOW_FILTERS } from '@shared/results/workflow-list';
import { fakeBridge, type FakeHandlers } from './support/fake-bridge';
import { SERVER_A } from './support/server-a';
import { WithServer } from './support/with-server';
import { workRequestFixture } from '../../support/work-requests';

const AT = '2026-11-29T09:00:00Z';
const EVIL_USER = '<b>eve</b>&filter-started_by=root';
const EVIL_TEMPLATE = 'evil&filter-statuses=aborted#x';

function step(id: number, root: number, extra: Partial<WorkRequestResponse>): WorkRequestResponse {
  return workRequestFixture(id, { parent: root, workflow_root: root, created_at: AT, ...extra });
}

const pipeline = workRequestFixture(20, {
  task_type: 'Workflow',
  task_name: 'debian_pipeline',
  created_at: AT,
  status: 'running',
  result: '',
  completed_at: null,
  started_at: '2026-11-29T10:00:00Z',
  created_by: 2,
  workflow_data: { workflow_template_name: 'pipeline' },
});
const failed = workRequestFixture(10, {
  task_type: 'Workflow',
  task_name: 'noop_workflow',
  created_at: AT,
  status: 'completed',
  result: 'failure',
  created_by: 3,
  workflow_data: { workflow_template_name: EVIL_TEMPLATE },
});
const STEPS = [
  step(24, 20, { status: 'pending', result: '', completed_at: null }),
  step(23, 20, {
    task_type: 'Wait',
    status: 'running',
    result: '',
    completed_at: null,
    started_at: '2026-11-29T10:07:00Z',
    workflow_data: { needs_input: true },
  }),
  step(22, 20, {
    status: 'running',
    result: '',
    completed_at: null,
    started_at: '2026-11-29T10:06:00Z',
  }),
  step(21, 20, { started_at: '2026-11-29T10:01:00Z', completed_at: '2026-11-29T10:05:00Z' }),
  step(11, 10, { result: 'failure' }),
];
const ROOTS = [pipeline, failed];
const CREATORS = { '2': 'ann', '3': EVIL_USER, '4': 'x'.repeat(5000) };

type Args<C extends RequestChannel> = RequestArgs<C>;

/** The server's answers: the roots' list, a tree's read down the whole list, a root. */
function handlers(nextCursor: string | null = null, roots = ROOTS) {
  return {
    'workRequests.page': (args: Args<'workRequests.page'>): WorkRequestPage => {
      if (args?.rootOnly === true) {
        const items = roots.filter((r) => args.status === undefined || r.status === args.status);
        return { items, nextCursor, creators: CREATORS };
      }
      if (args?.cursor === 'more') return { items: [], nextCursor: null, creators: {} };
      // A tree's read goes down the whole list, newest first, until it passes its root.
      const all = [...STEPS, ...roots].sort((a, b) => b.id - a.id);
      return { items: all, nextCursor: null, creators: CREATORS };
    },
    'workRequests.get': ({ id }: Args<'workRequests.get'>): WorkRequestResponse => {
      const found = roots.find((r) => r.id === id);
      if (found === undefined) throw new Error(`no work request ${String(id)}`);
      return found;
    },
    'workRequests.explainFailure': () => null,
    'links.webui': ({ path }: Args<'links.webui'>) => `https://a.example${path}`,
    'app.openExternal': () => undefined,
  } satisfies FakeHandlers;
}

/** Every row is on screen at once: its tree is read as soon as it is shown. */
class SeenAtOnce {
  constructor(private readonly callback: (entries: { isIntersecting: boolean }[]) => void) {}
  observe(): void {
    this.callback([{ isIntersecting: true }]);
  }
  disconnect(): void {
    // Nothing to stop: it told what it had to when it started observing.
  }
}

beforeEach(() => {
  vi.stubGlobal('IntersectionObserver', SeenAtOnce);
  useViewsStore.setState({ workflowFilters: NO_WORKFLOW_FILTERS });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function show(): void {
  render(
    <WithServer handlers={handlers()}>
      <WorkflowList />
    </WithServer>,
  );
}

/** Rows that never come on screen (the list is scrolled elsewhere). */
class NeverSeen {
  observe(): void {
    // Never tells anything: nothing is on screen.
  }
  disconnect(): void {
    // Nothing to stop.
  }
}

function select(name: string, value: string): void {
  fireEvent.change(screen.getByRole('combobox', { name }), { target: { value } });
}

describe('the Workflows tab', () => {
  it('shows each row’s step counts and last activity once its steps are read', async () => {
    show();
    const row = await screen.findByTestId('workflow-20');
    const counts = await within(row).findAllByTestId('step-counts');
    expect(counts[0]?.textContent).toBe('1 completed · 2 running · 1 pending');
    const activity = within(row).getAllByTestId('last-activity')[0];
    expect(activity?.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-29T10:07:00Z');
  });

  it('asks the server for a status, and says a facet told here is over the loaded ones', async () => {
    const seen: unknown[] = [];
    const base = handlers('next');
    render(
      <WithServer
        handlers={{
          ...base,
          'workRequests.page': (args) => {
            seen.push(args);
            return base['workRequests.page'](args);
          },
        }}
      >
        <WorkflowList />
      </WithServer>,
    );
    await screen.findByTestId('workflow-10');
    select('Workflow template', 'pipeline');
    await waitFor(() => {
      expect(screen.queryByTestId('workflow-10')).toBeNull();
    });
    expect(screen.getByTestId('workflow-footer').textContent).toContain(
      '1 of the 2 loaded workflows match',
    );
    expect(screen.getByRole('button', { name: 'Load more' })).toBeTruthy();
    select('Status', 'completed');
    await waitFor(() => {
      expect(seen).toContainEqual({ status: 'completed', taskType: 'Workflow', rootOnly: true });
    });
  });

  it('tells a running workflow’s runtime status from its steps, choosing running with it', async () => {
    show();
    await screen.findByTestId('workflow-10');
    select('Runtime status', 'needs_input');
    expect(useViewsStore.getState().workflowFilters).toMatchObject({
      status: 'running',
      runtimeStatus: 'needs_input',
    });
    await screen.findByTestId('workflow-20');
    await waitFor(() => {
      expect(screen.getByTestId('workflow-footer').textContent).toContain(
        '1 of the 1 loaded workflows match',
      );
    });
    select('Runtime status', 'waiting');
    await screen.findByText('No workflows match');
  });

  it('keeps a hostile creator and template inside the list and the web link', async () => {
    const seen: { path: string }[] = [];
    const opened: unknown[] = [];
    // Started by a user whose name no real one has, from a template of such a name.
    const long = workRequestFixture(5, {
      task_type: 'Workflow',
      created_at: AT,
      created_by: 4,
      workflow_data: { workflow_template_name: 'y'.repeat(5000) },
    });
    const base = handlers(null, [...ROOTS, long]);
    render(
      <WithServer
        handlers={{
          ...base,
          'links.webui': (args) => {
            seen.push(args);
            return base['links.webui'](args);
          },
          'app.openExternal': (args) => {
            opened.push(args);
          },
        }}
      >
        <WorkflowList />
      </WithServer>,
    );
    await screen.findByTestId('workflow-5');
    expect(document.querySelector('b')).toBeNull();
    const optionsOf = (name: string): (string | null)[] =>
      [...screen.getByRole('combobox', { name }).querySelectorAll('option')].map(
        (o) => o.textContent,
      );
    expect(optionsOf('Started by')).toEqual(['Anyone', EVIL_USER, 'ann']);
    expect(optionsOf('Workflow template')).toEqual(['Any template', EVIL_TEMPLATE, 'pipeline']);
    select('Started by', EVIL_USER);
    select('Workflow template', EVIL_TEMPLATE);
    fireEvent.click(screen.getByRole('checkbox', { name: 'With failed work requests' }));
    await waitFor(() => {
      expect(screen.getByTestId('workflow-footer').textContent).toContain(
        '1 of the 3 loaded workflows match',
      );
    });
    const open = screen.getByRole('button', { name: 'Open this view in the browser' });
    await waitFor(() => {
      expect(open).toHaveProperty('disabled', false);
    });
    fireEvent.click(open);
    await waitFor(() => {
      expect(opened).toHaveLength(1);
    });
    const path = seen.at(-1)?.path ?? '';
    expect(path.startsWith('/debusine/System/workflow/?')).toBe(true);
    const query = new URLSearchParams(path.slice(path.indexOf('?') + 1));
    expect([...query.entries()]).toEqual([
      ['filter-workflow_templates', EVIL_TEMPLATE],
      ['filter-started_by', EVIL_USER],
      ['filter-with_failed_work_requests', '1'],
    ]);
    expect(opened[0]).toEqual({ url: `https://a.example${path}` });
  });

  it('reads no tree of a closed row off screen, and says which rows it could not check', async () => {
    vi.stubGlobal('IntersectionObserver', NeverSeen);
    // Neither the newest nor failed: its row starts closed, so nothing shows its tree.
    const quiet = workRequestFixture(5, { task_type: 'Workflow', created_at: AT });
    const read: number[] = [];
    const base = handlers(null, [...ROOTS, quiet]);
    useViewsStore.setState({ workflowFilters: { ...NO_WORKFLOW_FILTERS, withFailed: true } });
    render(
      <WithServer
        handlers={{
          ...base,
          'workRequests.get': (args) => {
            read.push(args.id);
            return base['workRequests.get'](args);
          },
        }}
      >
        <WorkflowList />
      </WithServer>,
    );
    // The open rows' trees are read to show them, and the list counts with what they read.
    await waitFor(() => {
      expect(screen.getByTestId('workflow-footer').textContent).toContain(
        '1 of the 3 loaded workflows match · 1 not checked yet',
      );
    });
    const row = screen.getByTestId('workflow-5');
    expect(within(row).getByTestId('not-checked').textContent).toBe('not checked yet');
    expect(within(row).queryByTestId('step-counts')).toBeNull();
    expect(read).not.toContain(5);
  });

  it('opens the view on the server active now, never on the one before', async () => {
    const B: ServerSummary = { ...SERVER_A, id: 'server-b', apiUrl: 'https://b.example/api' };
    let active = SERVER_A;
    const opened: unknown[] = [];
    const fake = fakeBridge({
      ...handlers(),
      'servers.active': () => active,
      // Main answers for the server active when it is asked.
      'links.webui': ({ path }) =>
        `${active.id === B.id ? 'https://b.example' : 'https://a.example'}${path}`,
      'app.openExternal': (args) => {
        opened.push(args);
      },
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    queryClient.setQueryData(serverQueries.active.key, SERVER_A);
    render(
      <QueryClientProvider client={queryClient}>
        <BridgeProvider client={fake.client}>
          <WorkflowList />
        </BridgeProvider>
      </QueryClientProvider>,
    );
    const open = await screen.findByRole('button', { name: 'Open this view in the browser' });
    await waitFor(() => {
      expect(open).toHaveProperty('disabled', false);
    });
    // The switch, as the server switcher makes it: the new scope, and everything stale.
    active = B;
    act(() => {
      queryClient.setQueryData(serverQueries.active.key, B);
    });
    void queryClient.invalidateQueries();
    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Open this view in the browser' })).toHaveProperty(
        'disabled',
        false,
      );
    });
    fireEvent.click(screen.getByRole('button', { name: 'Open this view in the browser' }));
    await waitFor(() => {
      expect(opened).toEqual([{ url: 'https://b.example/debusine/System/workflow/' }]);
    });
  });

  it('starts with no facets where an older version kept the views without them', () => {
    const migrate = useViewsStore.persist.getOptions().migrate;
    const state = migrate?.({ tab: 'workflows', views: [], activeViewId: null }, 3) as {
      workflowFilters?: unknown;
    };
    expect(state.workflowFilters).toEqual(NO_WORKFLOW_FILTERS);
  });

  it('says which rows cannot be checked, where a tree’s read did not find all its steps', async () => {
    const base = handlers(null, [pipeline]);
    useViewsStore.setState({ workflowFilters: { ...NO_WORKFLOW_FILTERS, withFailed: true } });
    render(
      <WithServer
        handlers={{
          ...base,
          // A busy server: the list goes on with newer work, page after page, and the
          // read gives up before it reaches the root.
          'workRequests.page': (args) =>
            args?.rootOnly === true
              ? base['workRequests.page'](args)
              : { items: STEPS.slice(0, 4), nextCursor: 'on', creators: {} },
        }}
      >
        <WorkflowList />
      </WithServer>,
    );
    await waitFor(() => {
      expect(screen.getByTestId('workflow-footer').textContent).toContain(
        '0 of the 1 loaded workflows match · 1 cannot be checked: not all their steps were found',
      );
    });
    const row = screen.getByTestId('workflow-20');
    expect(within(row).getAllByTestId('not-checked')[0]?.textContent).toBe('steps not all found');
    expect(within(row).queryByTestId('step-counts')).toBeNull();
  });

  it('keeps its facets when the tab is left and shown again', async () => {
    show();
    await screen.findByTestId('workflow-10');
    select('Result', 'failure');
    cleanup();
    show();
    await screen.findByTestId('workflow-10');
    expect(screen.getByRole('combobox', { name: 'Result' })).toHaveProperty('value', 'failure');
    expect(screen.queryByTestId('workflow-20')).toBeNull();
  });
});
