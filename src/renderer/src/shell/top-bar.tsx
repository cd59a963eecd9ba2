import { Command as CommandIcon } from 'lucide-react';
import {
  ConnectionIndicator,
  type ConnectionState,
} from '@renderer/components/connection-indicator';
import { useUiStore } from '@renderer/state/ui-store';
import { ServerSwitcher } from './server-switcher';

export interface SessionSummary {
  serverName?: string;
  /** The server's host, shown beside its name: two servers' names may read alike. */
  serverHost?: string;
  scope?: string;
  username?: string;
  connection: ConnectionState;
  /** E.g. "next attempt in 4 s" while reconnecting. */
  connectionDetail?: string;
}

export function TopBar(props: { session: SessionSummary }): React.JSX.Element {
  const setPaletteOpen = useUiStore((s) => s.setPaletteOpen);
  const { session } = props;
  const isMac = navigator.platform.startsWith('Mac');
  return (
    <header className="top-bar">
      <span className="brand">Debusine Desktop</span>
      <ServerSwitcher
        serverName={session.serverName}
        serverHost={session.serverHost}
        scope={session.scope}
      />
      <span className="top-bar-spacer" />
      <button
        type="button"
        className="palette-button"
        onClick={() => {
          setPaletteOpen(true);
        }}
        aria-keyshortcuts={isMac ? 'Meta+K' : 'Control+K'}
      >
        <CommandIcon size={13} aria-hidden="true" />
        <span>Commands</span>
        <kbd>{isMac ? '⌘K' : 'Ctrl+K'}</kbd>
      </button>
      {session.username ? (
        <span
          className="user"
          data-testid="session-status"
          title={`Signed in as ${session.username} on ${session.serverName ?? ''}${session.serverHost ? ` (${session.serverHost})` : ''}`}
        >
          {session.username}
        </span>
      ) : null}
      <ConnectionIndicator
        state={session.connection}
        {...(session.connectionDetail ? { detail: session.connectionDetail } : {})}
      />
    </header>
  );
}
