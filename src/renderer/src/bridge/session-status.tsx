import { useQuery } from '@tanstack/react-query';
import { isDebusineError } from '../../../shared/errors';
import { useBridge } from './context';

export const sessionKeys = {
  whoami: () => ['session', 'whoami'] as const,
};

/** "Signed in as alice on host": the answer of `session.whoami`, through the bridge. */
export function SessionStatus(): React.JSX.Element {
  const bridge = useBridge();
  const whoami = useQuery({
    queryKey: sessionKeys.whoami(),
    queryFn: () => bridge.session.whoami(),
  });
  let text: string;
  if (whoami.isPending) text = 'Connecting…';
  else if (whoami.isError) {
    text = isDebusineError(whoami.error)
      ? `Not connected (${whoami.error.code}): ${whoami.error.message}`
      : 'Not connected';
  } else if (whoami.data.server === null) text = 'No server configured';
  else if (!whoami.data.authenticated) text = `Not signed in on ${whoami.data.server.name}`;
  else text = `Signed in as ${whoami.data.user ?? '?'} on ${whoami.data.server.name}`;
  return (
    <span className="session-status" data-testid="session-status" role="status" aria-live="polite">
      {text}
    </span>
  );
}
