// @vitest-environment happy-dom
/**
 * The work request filters bar: its selects stand in a fixed order, each with an "any"
 * choice first, and each sets its own filter; "Mine" is disabled and marked while the app
 * cannot tell whose work is whose, unless it is already on (so that it can be turned off).
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FiltersBar } from '@renderer/screens/work-requests/filters-bar';
import { NO_FILTERS, useViewsStore } from '@renderer/screens/work-requests/views-store';

beforeEach(() => {
  useViewsStore.setState({ filters: NO_FILTERS, activeViewId: null });
});
afterEach(cleanup);

describe('FiltersBar', () => {
  it('shows the selects in order, each starting with its "any" choice', () => {
    render(<FiltersBar taskNames={['sbuild', 'lintian']} workspaces={['System']} />);
    const selects = screen.getAllByRole('combobox');
    expect(selects.map((s) => s.getAttribute('aria-label'))).toEqual([
      'Status',
      'Result',
      'Task type',
      'Task',
      'Workspace',
    ]);
    expect(selects.map((s) => s.querySelector('option')?.textContent)).toEqual([
      'Any status',
      'Any result',
      'Any type',
      'Any task',
      'Any workspace',
    ]);
    const task = screen.getByRole('combobox', { name: 'Task' });
    expect([...task.querySelectorAll('option')].map((o) => o.value)).toEqual([
      '',
      'lintian',
      'sbuild',
    ]);
  });

  it('sets the filter of the select that changed, and only that one', () => {
    render(<FiltersBar taskNames={['sbuild']} workspaces={['System']} />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Workspace' }), {
      target: { value: 'System' },
    });
    expect(useViewsStore.getState().filters).toEqual({ ...NO_FILTERS, workspace: 'System' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), {
      target: { value: 'running' },
    });
    expect(useViewsStore.getState().filters).toEqual({
      ...NO_FILTERS,
      workspace: 'System',
      status: 'running',
    });
  });

  it('turns the check filters on and off', () => {
    render(<FiltersBar taskNames={[]} workspaces={[]} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Root workflows only' }));
    expect(useViewsStore.getState().filters.rootOnly).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Mine' }));
    expect(useViewsStore.getState().filters.mine).toBe(true);
    const root = screen.getByRole('checkbox', { name: 'Root workflows only' });
    expect(root.closest('label')?.className).toBe('wr-check');
    expect(root.closest('label')?.hasAttribute('data-unavailable')).toBe(false);
    expect(root.closest('label')?.hasAttribute('title')).toBe(false);
  });

  it('disables and marks "Mine" while it cannot be told, unless it is on', () => {
    const why = 'Sign in to tell which are yours';
    const { rerender } = render(
      <FiltersBar taskNames={[]} workspaces={[]} mineUnavailable={why} />,
    );
    const mine = screen.getByRole('checkbox', { name: 'Mine' });
    expect(mine).toHaveProperty('disabled', true);
    expect(mine.closest('label')?.getAttribute('data-unavailable')).toBe('true');
    expect(mine.closest('label')?.getAttribute('title')).toBe(why);

    useViewsStore.setState({ filters: { ...NO_FILTERS, mine: true } });
    rerender(<FiltersBar taskNames={[]} workspaces={[]} mineUnavailable={why} />);
    expect(mine).toHaveProperty('disabled', false);
    expect(mine.closest('label')?.getAttribute('data-unavailable')).toBe('false');
  });
});
