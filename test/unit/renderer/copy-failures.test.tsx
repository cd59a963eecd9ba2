// @vitest-environment happy-dom
/**
 * Every copy in the app says when the clipboard refused the text, as the browser refuses
 * it when the permission is not granted (`navigator.clipboard.writeText` rejects with a
 * NotAllowedError): the copy buttons, the artifact page's palette command, and the log
 * viewer's Copy.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { CopyButton } from '@renderer/components/copy-button';
import { ArtifactPage } from '@renderer/screens/artifacts/artifact-page';
import { usePaletteRegistry } from '@renderer/state/palette';
import type { ArtifactResponse } from '@shared/contract';
import { SERVER_A } from './support/server-a';
import { fakeBridge } from './support/fake-bridge';
import a405 from '../fixtures/real-work/artifact-405.json';

const writeText = vi.fn<(text: string) => Promise<void>>();

beforeEach(() => {
  writeText.mockReset();
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText },
  });
});
afterEach(cleanup);

const refused = () =>
  Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));

describe('a copy button', () => {
  it('says Copied when the text reached the clipboard', async () => {
    writeText.mockResolvedValue(undefined);
    render(<CopyButton text="debusine work-request show 3" label="Copy CLI command" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy CLI command' }));
    await screen.findByRole('button', { name: 'Copied' });
    expect(writeText).toHaveBeenCalledWith('debusine work-request show 3');
  });

  it('says the clipboard refused it, and why', async () => {
    writeText.mockImplementation(refused);
    render(<CopyButton text="debusine work-request show 3" label="Copy CLI command" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy CLI command' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'Could not copy to the clipboard (Write permission denied.). Select the text and press Ctrl+C instead.',
    );
    expect(screen.queryByRole('button', { name: 'Copied' })).toBeNull();
  });
});

describe('the artifact page’s palette command', () => {
  it('says the clipboard refused the CLI command', async () => {
    writeText.mockImplementation(refused);
    const artifact = structuredClone(a405) as unknown as ArtifactResponse;
    const fake = fakeBridge({
      'servers.active': () => SERVER_A,
      'artifacts.get': () => artifact,
      'links.webui': () => 'https://a.example/debusine/System/artifact/405/',
      'relations.list': () => [],
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <BridgeProvider client={fake.client}>
        <QueryClientProvider client={client}>
          <ArtifactPage id={artifact.id} server={SERVER_A.id} />
        </QueryClientProvider>
      </BridgeProvider>,
    );
    await screen.findByRole('heading', { level: 2 });
    const group = await waitFor(() => {
      const found = usePaletteRegistry.getState().groups['artifact-page'];
      if (!found) throw new Error('no palette commands yet');
      return found;
    });
    const copy = group.commands.find((c) => c.id === 'copy-cli');
    act(() => {
      copy?.run();
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not copy to the clipboard');
  });
});
