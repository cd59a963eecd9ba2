import type { WorkRequestResponse } from '../../src/shared/models';

/**
 * A work request as a current server sends it: a `noop` in `System`, completed with
 * `success`, created by user 2; `extra` overrides any field.
 */
export function workRequestFixture(
  id: number,
  extra: Partial<WorkRequestResponse> = {},
): WorkRequestResponse {
  return {
    id,
    created_at: 'x',
    started_at: null,
    completed_at: '2026-01-01T00:00:01Z',
    duration: null,
    status: 'completed',
    result: 'success',
    worker: null,
    task_type: 'Worker',
    task_name: 'noop',
    task_data: {},
    dynamic_task_data: null,
    priority_base: 0,
    priority_adjustment: 0,
    artifacts: [],
    scope: 'debusine',
    workspace: 'System',
    links: {},
    created_by: 2,
    ...extra,
  };
}

/** A `debian_pipeline` workflow still running, the root of its own steps. */
export function runningPipelineFixture(
  id: number,
  extra: Partial<WorkRequestResponse> = {},
): WorkRequestResponse {
  return workRequestFixture(id, {
    task_type: 'Workflow',
    task_name: 'debian_pipeline',
    status: 'running',
    result: '',
    completed_at: null,
    workflow_root: id,
    ...extra,
  });
}

/**
 * A build waiting for a worker: an `sbuild` in `developers`, pending since 10:30, whose
 * scheduler tags ask for an amd64 worker; `extra` overrides any field (tags included).
 */
export function pendingBuildFixture(
  extra: Partial<WorkRequestResponse> & Record<string, unknown> = {},
): WorkRequestResponse {
  return workRequestFixture(50, {
    created_at: '2026-11-29T10:30:00Z',
    completed_at: null,
    status: 'pending',
    result: '',
    task_name: 'sbuild',
    workspace: 'developers',
    scheduler_tags_required: ['worker:build-arch:amd64'],
    ...extra,
  } as Partial<WorkRequestResponse>);
}
