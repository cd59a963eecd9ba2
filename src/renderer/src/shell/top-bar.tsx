import { Command as CommandIcon, Server } from 'lucide-react';
import { ConnectionIndicator, type ConnectionState } from '../components/connection-indicator';
import { useUiStore } from '../state/ui-store';

export interface SessionSummary {
  serverName?: string;
  scope?: string;
  username?: string;
  connection: ConnectionState;
}

export function TopBar(props: { session: SessionSummary }): React.JSX.Element {
  const setArea = useUiStore((s) => s.setArea);
  const setPaletteOpen = useUiStore((s) => s.setPaletteOpen);
  const { session } = props;
  const isMac = navigator.platform.startsWith('Mac');
  return (
    <header className="top-bar">
      <span className="brand">Debusine Desktop</span>
      <button
        type="button"
        className="server-switcher"
        aria-label={
          session.serverName
            ? `Server ${session.serverName}, scope ${session.scope ?? ''}: change`
            : 'No server: add one'
        }
        onClick={() => {
          setArea('settings');
        }}
      >
        <Server size={14} aria-hidden="true" />
        {session.serverName ? (
          <>
            <span>{session.serverName}</span>
            <span className="muted">/ {session.scope}</span>
          </>
        ) : (
          <span className="muted">No server</span>
        )}
      </button>
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
          title={`Signed in as ${session.username} on ${session.serverName ?? ''}`}
        >
          {session.username}
        </span>
      ) : null}
      <ConnectionIndicator state={session.connection} />
    </header>
  );
}
