// @vitest-environment happy-dom
/**
 * Server data is cached under the active server profile's id: an artifact with the same id
 * on two servers is two entries, and switching servers never shows the previous server's
 * artifact while the new one's answer is on its way (nor after it says "not found"). The
 * app, the switcher and main's events are the real ones; only main is played by a fake.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { useMainEvents } from '@renderer/queries/events';
import { ArtifactPage } from '@renderer/screens/artifacts/artifact-page';
import { ServerSwitcher } from '@renderer/shell/server-switcher';
import type { ArtifactResponse, ServerSummary } from '@shared/contract';
import { DebusineError } from '@shared/errors';
import { SERVER_A as A } from './support/server-a';
import { fakeBridge } from './support/fake-bridge';

const B: ServerSummary = {
  ...A,
  id: 'server-b',
  name: 'Server B',
  apiUrl: 'https://b.example/api',
};

function artifactOnA(id: number): ArtifactResponse {
  return {
    id,
    workspace: 'System',
    category: 'debian:source-package',
    created_at: '2025-01-01T00:00:00Z',
    data: {},
    download_tar_gz_url: '',
    files_to_upload: [],
    expire_at: null,
    files: {
      'only-on-server-a.dsc': { size: 1, checksums: { sha256: 'a'.repeat(64) }, type: 'file' },
    },
    links: {},
  } as unknown as ArtifactResponse;
}

/** Main's side: one active server; B's artifact answer waits until the test lets it go. */
function mainWithTwoServers() {
  let active = A;
  let releaseB: (() => void) | undefined;
  const bAnswered = new Promise<void>((resolve) => {
    releaseB = resolve;
  });
  const fake = fakeBridge({
    'servers.active': () => active,
    'servers.list': () =>
      [A, B].map((s) => ({ ...s, webUrl: s.apiUrl, active: s.id === active.id })),
    'servers.setActive': ({ id }) => {
      active = id === B.id ? B : A;
      // What main sends while it switches, before it answers.
      fake.emit('servers.changed', { serverIds: [id] });
      fake.emit('session.changed', {
        server: active,
        user: 'alice',
        userId: 1,
        authenticated: true,
      });
      return active;
    },
    'artifacts.get': async ({ id }) => {
      if (active.id === A.id) return artifactOnA(id);
      await bAnswered;
      throw new DebusineError('not-found', `No artifact ${String(id)}`);
    },
    'links.webui': ({ path }) => `https://web.example${path}`,
    'relations.list': () => [],
  });
  return { fake, releaseB: () => releaseB?.() };
}

function Harness(props: { id: number }): React.JSX.Element {
  useMainEvents();
  return (
    <>
      <ServerSwitcher serverName="Server A" />
      <ArtifactPage id={props.id} server={A.id} />
    </>
  );
}

function renderApp(fake: ReturnType<typeof fakeBridge>, queryClient: QueryClient) {
  return render(
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={fake.client}>
        <Harness id={7} />
      </BridgeProvider>
    </QueryClientProvider>,
  );
}

function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: 1, staleTime: 10_000, refetchOnWindowFocus: false } },
  });
}

afterEach(() => {
  cleanup();
});

describe('server-scoped queries', () => {
  it('keys every query of server data with the active server profile id', async () => {
    const { fake } = mainWithTwoServers();
    const queryClient = newQueryClient();
    renderApp(fake, queryClient);
    await screen.findByText('only-on-server-a.dsc');
    const keys = queryClient
      .getQueryCache()
      .getAll()
      .map((q) => q.queryKey);
    const serverKeys = keys.filter((key) => key[0] !== '@app');
    // The artifact, its web link and its relations: all the server's.
    expect(serverKeys.length).toBeGreaterThanOrEqual(3);
    for (const key of serverKeys) expect(key[0]).toBe(A.id);
  });

  it("never shows the previous server's artifact after a switch", async () => {
    const { fake, releaseB } = mainWithTwoServers();
    const queryClient = newQueryClient();
    renderApp(fake, queryClient);
    await screen.findByText('only-on-server-a.dsc');

    fireEvent.click(screen.getByTestId('server-switcher'));
    fireEvent.click(await screen.findByRole('menuitemradio', { name: /Server B/ }));
    // The switch is done once the page has asked server B for artifact 7.
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.channel === 'artifacts.get').length).toBeGreaterThanOrEqual(
        2,
      );
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByText('only-on-server-a.dsc')).toBeNull();

    releaseB();
    await screen.findByText('Not found', {}, { timeout: 4000 });
    expect(screen.queryByText('only-on-server-a.dsc')).toBeNull();
    // Nothing of server A is kept: an answer that was on its way during the switch may be
    // server B's, and must not be found later as A's.
    const left = queryClient
      .getQueryCache()
      .getAll()
      .filter((q) => q.queryKey[0] === A.id);
    expect(left.map((q) => q.queryKey)).toEqual([]);
  });
});
