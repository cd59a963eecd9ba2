import { KeyRound, ServerCog } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '@renderer/components/empty-state';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import { useAppQuery } from '@renderer/queries/hooks';
import { serverQueries } from '@renderer/queries/servers';
import { useUiStore } from '@renderer/state/ui-store';

/**
 * Shows its children only with an active, signed-in server; otherwise says what to do
 * (first start: add a server; signed out: sign in), with the way to do it.
 */
export function RequireServer(props: { what: string; children: ReactNode }): React.JSX.Element {
  const setArea = useUiStore((s) => s.setArea);
  const active = useAppQuery(serverQueries.active);
  if (active.isPending) return <LoadingState />;
  if (active.isError) {
    return <ErrorState error={active.error} onRetry={() => void active.refetch()} />;
  }
  const server = active.data;
  if (server?.hasToken) return <>{props.children}</>;
  const go = (
    <button
      type="button"
      className="button primary"
      onClick={() => {
        setArea('settings');
      }}
    >
      {server ? 'Sign in' : 'Add a server'}
    </button>
  );
  return server ? (
    <EmptyState icon={KeyRound} title={`Sign in to ${server.name}`} action={go}>
      {props.what} needs you signed in. Enroll through the server&apos;s web page, or paste a token,
      in Settings.
    </EmptyState>
  ) : (
    <EmptyState icon={ServerCog} title="No server yet" action={go}>
      {props.what} needs a Debusine server. Add one in Settings: debusine.debian.net, one from your
      Debusine CLI configuration, or your own.
    </EmptyState>
  );
}
