import { useEffect, useState } from 'react';
import type { ConnectionState as IndicatorState } from '@renderer/components/connection-indicator';
import { useAppQuery } from '@renderer/queries/hooks';
import { serverQueries } from '@renderer/queries/servers';
import { useConnection, useWhoami } from '@renderer/queries/session';
import { hostBeside } from '@shared/server-names';
import type { SessionSummary } from './top-bar';

/** Whole seconds until `iso` (never below 0), ticking once a second; null without a time. */
export function useSecondsUntil(iso: string | null | undefined): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!iso) return;
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, [iso]);
  if (!iso) return null;
  return Math.max(0, Math.round((new Date(iso).getTime() - now) / 1000));
}

/** "next attempt in 4 s" (or "retrying now"), ticking once a second. */
function useNextAttempt(iso: string | null | undefined): string | undefined {
  const seconds = useSecondsUntil(iso);
  if (seconds === null) return undefined;
  return seconds > 0 ? `next attempt in ${String(seconds)} s` : 'retrying now';
}

/** The top bar's view of the session: active server, user, connection state. */
export function useSessionSummary(): SessionSummary {
  const whoami = useWhoami();
  const connection = useConnection();
  // The server named is the one whose data the pages show (the scope of their queries):
  // the session's answer can come in before it, or after it, during a switch.
  const active = useAppQuery(serverQueries.active);
  const server = active.data !== undefined ? active.data : (whoami.data?.server ?? null);
  const status = connection.data?.status;
  let state: IndicatorState = 'signed-out';
  if (whoami.data?.authenticated) {
    if (status === 'offline') state = 'offline';
    else if (status === 'reconnecting' || status === 'connecting') state = 'reconnecting';
    else if (status === 'signed-out') state = 'signed-out';
    else state = whoami.isError ? 'offline' : 'connected';
  } else if (whoami.isError && server) state = 'offline';
  const next = useNextAttempt(status === 'reconnecting' ? connection.data?.nextAttemptAt : null);
  const detail = status === 'connecting' && state === 'reconnecting' ? 'connecting…' : next;
  return {
    ...(server
      ? {
          serverName: server.name,
          serverHost: hostBeside(server.name, server.apiUrl),
          scope: server.scope ?? '',
        }
      : {}),
    ...(whoami.data?.user ? { username: whoami.data.user } : {}),
    connection: state,
    ...(detail ? { connectionDetail: detail } : {}),
  };
}
