// @vitest-environment happy-dom
/**
 * Wherever a server is named, its host is beside the name (in punycode where it is not
 * ASCII): two names may read alike, their hosts do not. And a link that makes another
 * server active says so, naming it with its host.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { useMainEvents } from '@renderer/queries/events';
import { ServerTable } from '@renderer/screens/settings/server-table';
import { useNavigateFromMain } from '@renderer/shell/navigate-from-main';
import { ServerSwitchNotice } from '@renderer/shell/server-switch-notice';
import { ServerSwitcher } from '@renderer/shell/server-switcher';
import { TopBar } from '@renderer/shell/top-bar';
import { useSessionSummary } from '@renderer/shell/use-session';
import { useServerSwitchNotice } from '@renderer/state/server-switch-notice';
import type { ServerProfile, ServerSummary } from '@shared/contract';
import { fakeBridge } from './support/fake-bridge';
import { SERVER_A } from './support/server-a';

/** "dеbusine.example" with a Cyrillic е: its host is xn--dbusine-*.example in punycode. */
const LOOK_ALIKE: ServerSummary = {
  ...SERVER_A,
  id: 'look-alike',
  name: 'd\u0435busine.example',
  apiUrl: 'https://d\u0435busine.example/api',
};
const REAL: ServerSummary = {
  ...SERVER_A,
  id: 'real',
  name: 'debusine.example',
  apiUrl: 'https://debusine.example/api',
};
const PUNYCODE = new URL(LOOK_ALIKE.apiUrl).host;

function renderWith(fake: ReturnType<typeof fakeBridge>, ui: React.JSX.Element) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={fake.client}>{ui}</BridgeProvider>
    </QueryClientProvider>,
  );
}

function TopBarHarness(): React.JSX.Element {
  return <TopBar session={useSessionSummary()} />;
}

afterEach(() => {
  cleanup();
  useServerSwitchNotice.getState().dismiss();
});

describe('the host beside the name', () => {
  it('is in the top bar, in punycode', async () => {
    expect(PUNYCODE.startsWith('xn--')).toBe(true);
    const fake = fakeBridge({
      'servers.active': () => LOOK_ALIKE,
      'servers.list': () => [
        { ...LOOK_ALIKE, webUrl: LOOK_ALIKE.apiUrl, active: true },
        { ...REAL, webUrl: REAL.apiUrl, active: false },
      ],
    });
    renderWith(fake, <TopBarHarness />);
    const button = screen.getByTestId('server-switcher');
    expect(await within(button).findByText(`(${PUNYCODE})`)).toBeTruthy();
    expect(button.getAttribute('aria-label')).toContain(PUNYCODE);
  });

  it('is beside each server in the switcher', async () => {
    const fake = fakeBridge({
      'servers.list': () => [
        { ...LOOK_ALIKE, webUrl: LOOK_ALIKE.apiUrl, active: true },
        { ...REAL, webUrl: REAL.apiUrl, active: false },
      ],
    });
    renderWith(
      fake,
      <ServerSwitcher serverName={LOOK_ALIKE.name} serverHost={PUNYCODE} scope="debusine" />,
    );
    fireEvent.click(screen.getByTestId('server-switcher'));
    const items = await screen.findAllByRole('menuitemradio');
    expect(items[0]?.textContent).toContain(PUNYCODE);
    expect(items[1]?.textContent).toContain('debusine.example');
  });

  it("is beside each name in the settings' server table", () => {
    const servers: ServerProfile[] = [LOOK_ALIKE, REAL].map((s) => ({
      ...s,
      webUrl: s.apiUrl,
      active: s.id === REAL.id,
    })) as unknown as ServerProfile[];
    renderWith(
      fakeBridge({}),
      <ServerTable servers={servers} signInFor={null} onSignIn={() => undefined} />,
    );
    const row = screen.getByTestId(`server-row-${LOOK_ALIKE.name}`);
    const nameCell = row.querySelector('td');
    expect(nameCell?.textContent).toContain(`(${PUNYCODE})`);
  });
});

describe('a link that switches servers', () => {
  function NoticeHarness(): React.JSX.Element {
    useMainEvents();
    useNavigateFromMain();
    return <ServerSwitchNotice />;
  }

  it('says so, naming the server and its host', async () => {
    const fake = fakeBridge({});
    renderWith(fake, <NoticeHarness />);
    expect(screen.queryByTestId('server-switch-notice')).toBeNull();
    act(() => {
      fake.emit('app.navigate', {
        kind: 'work-request',
        id: 42,
        server: LOOK_ALIKE.id,
        switchedTo: { profileId: LOOK_ALIKE.id, name: LOOK_ALIKE.name, host: PUNYCODE },
      });
    });
    const notice = await screen.findByTestId('server-switch-notice');
    expect(notice.textContent).toContain(`Switched to server ${LOOK_ALIKE.name}`);
    expect(notice.textContent).toContain(`(${PUNYCODE})`);
    fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('server-switch-notice')).toBeNull();
  });

  it('says nothing when the server stays the same', () => {
    const fake = fakeBridge({});
    renderWith(fake, <NoticeHarness />);
    act(() => {
      fake.emit('app.navigate', { kind: 'work-request', id: 42, server: REAL.id });
    });
    expect(screen.queryByTestId('server-switch-notice')).toBeNull();
  });
});
