// @vitest-environment happy-dom
/**
 * After an upload, the "Start a workflow" form puts the uploaded artifact where the picked
 * template's workflow takes its source: `source_artifact` for debian_pipeline, inside
 * `input` for sbuild (by the runtime parameters the template lets users set, or, when it
 * lets them set anything, by its workflow), and starting it hands over the workflow's id.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { StartWorkflowForm } from '@renderer/kit/start-workflow-form';
import { fitInitialTaskData } from '@renderer/kit/workflow-template';
import type { WorkflowTemplateData, WorkRequestResponse } from '@shared/contract';
import { SERVER_A } from './support/server-a';
import { fakeBridge } from './support/fake-bridge';

function template(
  id: number,
  name: string,
  taskName: string,
  runtime: WorkflowTemplateData['runtime_parameters'],
): WorkflowTemplateData {
  return {
    id,
    name,
    task_name: taskName,
    workspace: 'System',
    static_parameters: {},
    runtime_parameters: runtime,
    priority: 0,
  } as unknown as WorkflowTemplateData;
}

const PIPELINE = template(1, 'ddt-pipeline', 'debian_pipeline', {
  source_artifact: 'any',
  vendor: 'any',
});
const SBUILD = template(2, 'ddt-sbuild', 'sbuild', { input: 'any', target_distribution: 'any' });
const SBUILD_ANY = template(3, 'ddt-sbuild-open', 'sbuild', 'any');

async function startWith(picked: string): Promise<{ taskData: unknown; started: number[] }> {
  const fake = fakeBridge({
    'servers.active': () => SERVER_A,
    'workflowTemplates.list': () => [PIPELINE, SBUILD, SBUILD_ANY],
    'workflows.create': () => ({ id: 900 }) as unknown as WorkRequestResponse,
  });
  const started: number[] = [];
  render(
    <BridgeProvider client={fake.client}>
      <QueryClientProvider client={new QueryClient()}>
        <StartWorkflowForm
          workspace="System"
          initialTemplate={picked}
          initialTaskData={{ source_artifact: 42 }}
          onStarted={(id) => started.push(id)}
        />
      </QueryClientProvider>
    </BridgeProvider>,
  );
  fireEvent.click(await screen.findByRole('button', { name: 'Start workflow' }));
  await waitFor(() => {
    expect(started).toEqual([900]);
  });
  const call = fake.calls.find((c) => c.channel === 'workflows.create');
  return { taskData: (call?.args as { task_data?: unknown } | undefined)?.task_data, started };
}

afterEach(cleanup);

describe('the start form after an upload', () => {
  it('fills source_artifact for a debian_pipeline template', async () => {
    const { taskData } = await startWith('ddt-pipeline');
    expect(taskData).toEqual({ source_artifact: 42 });
    // The field's hint says what happens to it as it is: sent, not "left out".
    const field = screen.getByLabelText('source_artifact');
    const hint = document.getElementById(field.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toBe('Sent with the workflow');
  });

  it('fills input.source_artifact for an sbuild template', async () => {
    const { taskData } = await startWith('ddt-sbuild');
    expect(taskData).toEqual({ input: { source_artifact: 42 } });
  });

  it('fills input.source_artifact for an sbuild template that lets users set anything', async () => {
    const { taskData } = await startWith('ddt-sbuild-open');
    expect(taskData).toEqual({ input: { source_artifact: 42 } });
  });
});

describe('fitInitialTaskData', () => {
  it('goes by the runtime parameters, not by the workflow, when they say', () => {
    const both = template(4, 'x', 'sbuild', { source_artifact: 'any', input: 'any' });
    expect(fitInitialTaskData(both, { source_artifact: 1 })).toEqual({ source_artifact: 1 });
    const inputOnly = template(5, 'y', 'some_new_workflow', { input: 'any' });
    expect(fitInitialTaskData(inputOnly, { source_artifact: 1 })).toEqual({
      input: { source_artifact: 1 },
    });
  });

  it('keeps what input already holds, and leaves other task data alone', () => {
    expect(
      fitInitialTaskData(SBUILD, { source_artifact: 1, input: { extra: ['a'] }, other: 2 }),
    ).toEqual({ input: { extra: ['a'], source_artifact: 1 }, other: 2 });
    expect(fitInitialTaskData(SBUILD, { other: 2 })).toEqual({ other: 2 });
    expect(fitInitialTaskData(null, { source_artifact: 1 })).toEqual({ source_artifact: 1 });
  });
});
