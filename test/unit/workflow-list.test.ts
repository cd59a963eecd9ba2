/**
 * The workflow list's facets, as Debusine's web UI has them: the runtime status told from
 * the steps, the step counts and last activity of a row, and the query string that opens
 * the same view on the web, in the web's own parameter names and values.
 */
import { describe, expect, it } from 'vitest';
import {
  NO_WORKFLOW_FILTERS,
  activeWorkflowFilterCount,
  hasFailedSteps,
  lastActivity,
  matchWorkflow,
  runtimeStatus,
  serverStatus,
  stepCounts,
  stepCountsText,
  templateName,
  webQueryString,
  withRuntimeStatus,
  withStatus,
  workflowListWebPath,
  type StepFields,
  type WorkflowFilters,
} from '../../src/shared/results/workflow-list';

function step(id: number, extra: Partial<StepFields> = {}): StepFields {
  return {
    id,
    status: 'completed',
    result: 'success',
    task_type: 'Worker',
    started_at: null,
    completed_at: null,
    ...extra,
  };
}

const root = step(1, { task_type: 'Workflow', status: 'running', result: '' });
const filters = (extra: Partial<WorkflowFilters>): WorkflowFilters => ({
  ...NO_WORKFLOW_FILTERS,
  ...extra,
});

describe('the runtime status of a workflow', () => {
  it('is needs_input while a wait step asks a person, before anything else', () => {
    expect(
      runtimeStatus([
        root,
        step(2, { status: 'running' }),
        step(3, { task_type: 'Wait', status: 'running', workflow_data: { needs_input: true } }),
      ]),
    ).toBe('needs_input');
  });

  it('is running while work runs, then waiting for a wait that needs no person', () => {
    const wait = step(3, {
      task_type: 'Wait',
      status: 'running',
      workflow_data: { needs_input: false },
    });
    expect(runtimeStatus([root, step(2, { status: 'running' }), wait])).toBe('running');
    expect(runtimeStatus([root, wait, step(4, { status: 'pending' })])).toBe('waiting');
  });

  it('is pending, blocked, aborted in that order, and completed when all are', () => {
    const s = (status: string): StepFields => step(status.length, { status });
    expect(runtimeStatus([s('blocked'), s('pending')])).toBe('pending');
    expect(runtimeStatus([s('aborted'), s('blocked')])).toBe('blocked');
    expect(runtimeStatus([s('completed'), s('aborted')])).toBe('aborted');
    expect(runtimeStatus([root, s('completed')])).toBe('completed');
  });

  it('does not count a running sub-workflow as running work', () => {
    const sub = step(2, { task_type: 'Workflow', status: 'running' });
    expect(runtimeStatus([root, sub, step(3, { status: 'pending' })])).toBe('pending');
  });
});

describe('failed steps', () => {
  it('counts a shown failure, not one allowed to fail nor a hidden one', () => {
    expect(hasFailedSteps([step(2, { result: 'failure' })])).toBe(true);
    expect(hasFailedSteps([step(2, { result: 'temporary failure' })])).toBe(true);
    expect(hasFailedSteps([step(2, { result: 'error' })])).toBe(false);
    expect(
      hasFailedSteps([step(2, { result: 'failure', workflow_data: { allow_failure: true } })]),
    ).toBe(false);
    expect(
      hasFailedSteps([step(2, { result: 'failure', workflow_data: { visible: false } })]),
    ).toBe(false);
  });
});

describe('a row’s step counts and last activity', () => {
  it('counts shown leaf steps per status, in order, an unknown status as other', () => {
    const counts = stepCounts([
      root,
      step(2, { status: 'pending' }),
      step(3),
      step(4, { status: 'running' }),
      step(5),
      step(6, { status: 'pending' }),
      step(7, { status: 'pending', workflow_data: { visible: false } }),
      step(8, { status: '<img src=x onerror=alert(1)>' }),
    ]);
    expect(counts).toEqual([
      ['completed', 2],
      ['running', 1],
      ['pending', 2],
      ['other', 1],
    ]);
    expect(stepCountsText(counts)).toBe('2 completed · 1 running · 2 pending · 1 other');
    expect(stepCountsText([])).toBe('no steps');
  });

  it('is the newest time a step started or ended, else the root’s, ignoring unreadable times', () => {
    const r = step(1, { started_at: '2026-01-01T10:00:00Z' });
    expect(
      lastActivity(r, [
        r,
        step(2, { started_at: '2026-01-01T11:00:00Z', completed_at: '2026-01-01T11:30:00Z' }),
        step(3, { started_at: '2026-01-01T11:10:00Z' }),
        step(4, { started_at: 'not a time' }),
      ]),
    ).toBe('2026-01-01T11:30:00Z');
    expect(lastActivity(r, [r])).toBe('2026-01-01T10:00:00Z');
    expect(lastActivity(step(1), [])).toBeNull();
  });
});

describe('matching a root workflow', () => {
  const pipeline = step(1, {
    task_type: 'Workflow',
    status: 'running',
    result: '',
    workflow_data: { workflow_template_name: 'debian-pipeline' },
  });

  it('tells the root’s own facets without its steps', () => {
    expect(
      matchWorkflow(pipeline, filters({ template: 'debian-pipeline' }), 'ann', undefined),
    ).toBe('yes');
    expect(matchWorkflow(pipeline, filters({ template: 'other' }), 'ann', undefined)).toBe('no');
    expect(matchWorkflow(pipeline, filters({ startedBy: 'ann' }), 'ann', undefined)).toBe('yes');
    expect(matchWorkflow(pipeline, filters({ startedBy: 'bob' }), undefined, undefined)).toBe('no');
    expect(matchWorkflow(pipeline, filters({ status: 'completed' }), 'ann', undefined)).toBe('no');
    expect(matchWorkflow(pipeline, filters({ result: 'success' }), 'ann', undefined)).toBe('no');
  });

  it('is unknown, not guessed, while the steps a facet needs are not read', () => {
    const running = filters({ runtimeStatus: 'running', status: 'running' });
    expect(matchWorkflow(pipeline, running, 'ann', undefined)).toBe('unknown');
    expect(matchWorkflow(pipeline, running, 'ann', [step(2, { status: 'running' })])).toBe('yes');
    expect(matchWorkflow(pipeline, running, 'ann', [step(2, { status: 'pending' })])).toBe('no');
    const failed = filters({ withFailed: true });
    expect(matchWorkflow(pipeline, failed, 'ann', [step(2, { result: 'failure' })])).toBe('yes');
    expect(matchWorkflow(pipeline, failed, 'ann', [step(2)])).toBe('no');
  });

  it('reads no template from workflow data that is not what it should be', () => {
    expect(templateName(step(1, { workflow_data: 'debian-pipeline' }))).toBeNull();
    expect(templateName(step(1, { workflow_data: { workflow_template_name: 7 } }))).toBeNull();
    expect(
      templateName(step(1, { workflow_data: { workflow_template_name: 'x'.repeat(500) } })),
    ).toBeNull();
    expect(templateName(step(1, { workflow_data: null }))).toBeNull();
  });
});

describe('status and runtime status together', () => {
  it('a runtime status implies running, and another status drops it', () => {
    const rt = withRuntimeStatus(NO_WORKFLOW_FILTERS, 'needs_input');
    expect(rt).toMatchObject({ status: 'running', runtimeStatus: 'needs_input' });
    expect(serverStatus(rt)).toBe('running');
    expect(withStatus(rt, 'completed')).toMatchObject({ status: 'completed', runtimeStatus: '' });
    expect(withStatus(rt, 'running')).toMatchObject({ runtimeStatus: 'needs_input' });
    expect(activeWorkflowFilterCount(rt)).toBe(2);
    expect(serverStatus(filters({ status: 'bogus' }))).toBeUndefined();
  });
});

describe('the web’s query string', () => {
  it('uses the web table’s parameter names and values', () => {
    expect(webQueryString(NO_WORKFLOW_FILTERS)).toBe('');
    expect(webQueryString(filters({ status: 'completed' }))).toBe('filter-statuses=completed');
    expect(webQueryString(filters({ status: 'running' }))).toBe('filter-statuses=running__any');
    expect(webQueryString(filters({ status: 'running', runtimeStatus: 'needs_input' }))).toBe(
      'filter-statuses=running__needs_input',
    );
    expect(
      webQueryString(
        filters({
          result: 'temporary failure',
          template: 'debian-pipeline',
          startedBy: 'ann',
          withFailed: true,
        }),
      ),
    ).toBe(
      'filter-results=temporary+failure&filter-workflow_templates=debian-pipeline' +
        '&filter-started_by=ann&filter-with_failed_work_requests=1',
    );
  });

  it('keeps hostile names inside their own parameter and leaves unknown values out', () => {
    const query = webQueryString(
      filters({
        status: 'completed&filter-statuses=aborted',
        runtimeStatus: 'x#y',
        result: 'success&x=1',
        template: 'a&filter-started_by=root#frag',
        startedBy: 'eve/../?x= y',
      }),
    );
    const parsed = new URLSearchParams(query);
    expect([...parsed.keys()]).toEqual(['filter-workflow_templates', 'filter-started_by']);
    expect(parsed.get('filter-workflow_templates')).toBe('a&filter-started_by=root#frag');
    expect(parsed.get('filter-started_by')).toBe('eve/../?x= y');
    expect(query).not.toContain('#');
  });

  it('is put on the workspace’s workflow list, scope and workspace encoded', () => {
    expect(workflowListWebPath('debusine', 'System', filters({ status: 'completed' }))).toBe(
      '/debusine/System/workflow/?filter-statuses=completed',
    );
    expect(workflowListWebPath('debusine', 'System', NO_WORKFLOW_FILTERS)).toBe(
      '/debusine/System/workflow/',
    );
    expect(workflowListWebPath('a/b', '../x?y', NO_WORKFLOW_FILTERS)).toBe(
      '/a%2Fb/..%2Fx%3Fy/workflow/',
    );
  });
});
