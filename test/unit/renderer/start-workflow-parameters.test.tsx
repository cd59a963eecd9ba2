// @vitest-environment happy-dom
/**
 * The "Start a workflow" form reads each runtime parameter by the kind of its template
 * default: a number must be a number, a mapping must be JSON, a text is taken as typed, and an
 * empty input leaves the parameter out. A bad text shows what is wrong, next to the field, and
 * holds the start back; what is sent is the values read, with their types.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { StartWorkflowForm } from '@renderer/kit/start-workflow-form';
import type { WorkflowTemplateData, WorkRequestResponse } from '@shared/contract';
import { SERVER_A } from './support/server-a';
import { fakeBridge } from './support/fake-bridge';

const TEMPLATE = {
  id: 7,
  name: 'typed',
  task_name: 'noop',
  workspace: 'System',
  static_parameters: { count: 3, options: { a: 1 }, suite: 'sid' },
  runtime_parameters: { count: 'any', options: 'any', suite: 'any', note: 'any' },
  priority: 0,
} as unknown as WorkflowTemplateData;

function renderForm(): ReturnType<typeof fakeBridge> {
  const fake = fakeBridge({
    'servers.active': () => SERVER_A,
    'workflowTemplates.list': () => [TEMPLATE],
    'workflows.create': () => ({ id: 900 }) as unknown as WorkRequestResponse,
  });
  render(
    <BridgeProvider client={fake.client}>
      <QueryClientProvider client={new QueryClient()}>
        <StartWorkflowForm workspace="System" initialTemplate="typed" />
      </QueryClientProvider>
    </BridgeProvider>,
  );
  return fake;
}

const type = (label: string, text: string): void => {
  fireEvent.change(screen.getByLabelText(label), { target: { value: text } });
};

afterEach(cleanup);

describe('the start form’s runtime parameters', () => {
  it('names a bad number and bad JSON at their fields, and does not start', async () => {
    renderForm();
    await screen.findByLabelText('count');
    type('count', '12x');
    type('options', '{a: 1');
    const count = screen.getByLabelText('count');
    const options = screen.getByLabelText('options');
    expect(count.getAttribute('aria-invalid')).toBe('true');
    expect(options.getAttribute('aria-invalid')).toBe('true');
    const errorOf = (el: HTMLElement): string | null | undefined =>
      document.getElementById(el.getAttribute('aria-describedby')?.split(' ')[1] ?? '')
        ?.textContent;
    expect(errorOf(count)).toBe('A number.');
    expect(errorOf(options)).toBe('Not valid JSON.');
    expect(screen.getByRole('button', { name: 'Start workflow' })).toHaveProperty('disabled', true);
  });

  it('sends numbers as numbers, JSON as data, text as typed, and leaves empty ones out', async () => {
    const fake = renderForm();
    await screen.findByLabelText('count');
    type('count', '12x');
    type('count', '-4.5');
    type('options', '{"b": [1, 2]}');
    type('suite', ' bookworm ');
    type('note', 'x');
    type('note', '  ');
    expect(screen.getByLabelText('count').getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Start workflow' }));
    await waitFor(() => {
      expect(fake.calls.some((c) => c.channel === 'workflows.create')).toBe(true);
    });
    const call = fake.calls.find((c) => c.channel === 'workflows.create');
    expect((call?.args as { task_data?: unknown } | undefined)?.task_data).toEqual({
      count: -4.5,
      options: { b: [1, 2] },
      suite: ' bookworm ',
    });
  });
});
