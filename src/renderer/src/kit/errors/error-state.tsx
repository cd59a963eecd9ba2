import { CloudOff, KeyRound, SearchX, ServerCrash, ShieldX, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { isDebusineError, type ErrorCode } from '@shared/errors';
import { useUiStore } from '@renderer/state/ui-store';

const ADVICE: Partial<Record<ErrorCode, { title: string; todo: string; icon: typeof CloudOff }>> = {
  auth: { title: 'Not signed in', todo: 'Sign in again in Settings.', icon: KeyRound },
  'token-disabled': {
    title: 'The token was disabled',
    todo: 'Sign in again in Settings to get a new token.',
    icon: KeyRound,
  },
  forbidden: {
    title: 'Not allowed',
    todo: 'Your account lacks the role this needs; ask the workspace owner.',
    icon: ShieldX,
  },
  'not-found': {
    title: 'Not found',
    todo: 'Check the id, the workspace and the server URL.',
    icon: SearchX,
  },
  network: {
    title: 'The server cannot be reached',
    todo: 'Check your connection and the server URL, then retry.',
    icon: CloudOff,
  },
  timeout: { title: 'The server did not answer in time', todo: 'Retry.', icon: CloudOff },
  server: {
    title: 'The server failed',
    todo: 'Retry; if it persists, tell its admins.',
    icon: ServerCrash,
  },
  unsupported: {
    title: 'Not offered by this server',
    todo: 'This server release does not have this feature.',
    icon: ServerCrash,
  },
};

/**
 * An error says what happened and what to do about it: sign in again, retry, or check the
 * server URL.
 */
export function ErrorState(props: {
  error: unknown;
  onRetry?: () => void;
  children?: ReactNode;
}): React.JSX.Element {
  const navigate = useUiStore((s) => s.setArea);
  const code = isDebusineError(props.error) ? props.error.code : 'internal';
  const message = props.error instanceof Error ? props.error.message : String(props.error);
  const advice = ADVICE[code] ?? {
    title: 'Something went wrong',
    todo: 'Retry.',
    icon: TriangleAlert,
  };
  const Icon = advice.icon;
  const signIn = code === 'auth' || code === 'token-disabled';
  return (
    <section className="error-state" role="alert">
      <Icon size={20} aria-hidden="true" className="tone-danger" />
      <div className="error-state-text">
        <h2>{advice.title}</h2>
        <p className="error-state-message">{message}</p>
        <p className="muted">{advice.todo}</p>
        {props.children}
        <div className="error-state-actions">
          {signIn ? (
            <button
              type="button"
              className="button primary"
              onClick={() => {
                navigate('settings');
              }}
            >
              Sign in
            </button>
          ) : null}
          {props.onRetry ? (
            <button type="button" className="button" onClick={props.onRetry}>
              Retry
            </button>
          ) : null}
        </div>
      </div>
    </section>
  );
}
