// @vitest-environment happy-dom
/**
 * The command palette lists, in its groups, the actions that ask an area for something, the
 * signed-in server's sign-out, the other servers to switch to (with their scope as a note),
 * the areas and the themes; choosing an action opens its area and asks it, then closes.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { CommandPalette } from '@renderer/shell/command-palette';
import { usePaletteRegistry } from '@renderer/state/palette';
import { useUiStore } from '@renderer/state/ui-store';
import { fakeBridge } from './support/fake-bridge';
import { SERVER_A } from './support/server-a';

const A = SERVER_A;
const B = { ...SERVER_A, id: 'server-b', name: 'Server B', scope: 'other' };

function renderPalette(): void {
  const fake = fakeBridge({
    'servers.list': () => [A, B].map((s) => ({ ...s, webUrl: s.apiUrl, active: s.id === A.id })),
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <BridgeProvider client={fake.client}>
        <CommandPalette />
      </BridgeProvider>
    </QueryClientProvider>,
  );
}

/** The options of the group with this heading, as their text. */
function optionsOf(heading: string): string[] {
  const group = screen.getByText(heading).closest('[cmdk-group]');
  if (!(group instanceof HTMLElement)) throw new Error(`no group ${heading}`);
  return within(group)
    .getAllByRole('option')
    .map((o) => o.textContent);
}

beforeEach(() => {
  useUiStore.setState({ paletteOpen: true, area: 'settings' });
  usePaletteRegistry.setState({ intent: null });
});
afterEach(cleanup);

describe('CommandPalette', () => {
  it('lists each group’s commands, with the notes that belong to them', async () => {
    renderPalette();
    await screen.findByText('Switch to Server B');
    expect(optionsOf('Actions')).toEqual([
      'Choose files to upload…',
      'Look up an artifact by id or URL…',
      'Add a server…',
      'Sign out of Server A',
    ]);
    expect(optionsOf('Switch server')).toEqual(['Switch to Server Bother']);
    expect(optionsOf('Appearance')).toEqual([
      'Theme: follow the system',
      'Theme: light',
      'Theme: dark',
    ]);
    const upload = screen.getByRole('option', { name: 'Choose files to upload…' });
    expect(upload.className).toBe('palette-item');
    expect(upload.querySelector('.palette-hint')).toBeNull();
    expect(upload.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    const other = screen.getByText('Switch to Server B').closest('[cmdk-item]');
    expect(other?.querySelector('.palette-hint')?.textContent).toBe('other');
  });

  it('opens the area an action belongs to, asks it, and closes', async () => {
    renderPalette();
    await screen.findByText('Switch to Server B');
    fireEvent.click(screen.getByRole('option', { name: 'Look up an artifact by id or URL…' }));
    expect(useUiStore.getState().area).toBe('artifacts');
    expect(usePaletteRegistry.getState().intent).toEqual({ kind: 'artifacts.lookup' });
    expect(useUiStore.getState().paletteOpen).toBe(false);
  });
});
