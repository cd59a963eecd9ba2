// @vitest-environment happy-dom
/**
 * Editing a server's address to another origin signs the user out of it (main drops the
 * token, which belongs to the server that issued it): the form says so before saving, and
 * only then. Main is played by a fake.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { EditServerForm } from '@renderer/screens/settings/add-server';
import type { ServerProfile } from '@shared/contract';
import { SERVER_A } from './support/server-a';
import { fakeBridge } from './support/fake-bridge';

const NOTE = 'Changing the address signs you out of this server: you will sign in again.';
const SAVED: ServerProfile = { ...SERVER_A, webUrl: 'https://a.example', active: true };

function renderForm() {
  const fake = fakeBridge({
    'servers.update': (args) => ({ ...SAVED, ...args, scope: SAVED.scope }),
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <BridgeProvider client={fake.client}>
        <EditServerForm server={SAVED} onDone={() => undefined} />
      </BridgeProvider>
    </QueryClientProvider>,
  );
  const address = screen.getByLabelText('API URL');
  return {
    fake,
    type: (value: string) => {
      fireEvent.change(address, { target: { value } });
    },
  };
}

afterEach(() => {
  cleanup();
});

describe('the server form', () => {
  it('says that another origin signs the user out, before saving', async () => {
    const { fake, type } = renderForm();
    expect(screen.queryByText(NOTE)).toBeNull();
    for (const other of [
      'https://b.example/api',
      'http://a.example/api',
      'https://a.example:8443/api',
    ]) {
      type(other);
      expect(screen.getByRole('status').textContent).toBe(NOTE);
    }
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(fake.calls.map((c) => c.channel)).toContain('servers.update');
    });
  });

  it('says nothing when only the path changes, or the address is being typed', () => {
    const { type } = renderForm();
    for (const same of ['https://a.example/debusine/api', 'HTTPS://A.example:443/api', 'https:']) {
      type(same);
      expect(screen.queryByText(NOTE)).toBeNull();
    }
  });
});
