import { CircleCheck, CloudOff, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { ConnectionState } from '@shared/contract';
import { OpenButton } from '@renderer/kit/open-button';
import { useMainEvent } from '@renderer/queries/events';
import { StatusBadge } from '@renderer/components/status-badge';
import { useConnection } from '@renderer/queries/session';
import { useSecondsUntil } from './use-session';
import './offline-banner.css';

interface Missed {
  id: number;
  /** `completed`, or `aborted` (a workflow that ended aborted while the app was away). */
  status: string;
  result: string;
}

const DOWN = new Set<ConnectionState['status']>(['offline', 'reconnecting']);
/** After reconnecting, the server replays what completed meanwhile; collect it this long. */
const CATCH_UP_MS = 30_000;

/**
 * Offline: says so, with the next reconnect attempt. Back online: lists, once, the work
 * that completed while the app could not hear about it (the websocket's catch-up).
 */
export function OfflineBanner(): React.JSX.Element | null {
  const connection = useConnection();
  const state = connection.data;
  const down = state ? DOWN.has(state.status) : false;
  const seconds = useSecondsUntil(state?.status === 'reconnecting' ? state.nextAttemptAt : null);

  // When the connection went down, and when it came back: completions in between were missed.
  const wentDown = useRef<number | null>(null);
  const cameBack = useRef<{ at: number; since: number } | null>(null);
  const [missed, setMissed] = useState<Missed[]>([]);
  const [showBack, setShowBack] = useState(false);
  useEffect(() => {
    if (!state) return;
    if (DOWN.has(state.status)) {
      wentDown.current ??= new Date(state.since).getTime();
    } else if (state.status === 'connected' && wentDown.current !== null) {
      cameBack.current = { at: Date.now(), since: wentDown.current };
      wentDown.current = null;
      setMissed([]);
      setShowBack(true);
    }
  }, [state]);
  useMainEvent('workRequest.completed', (event) => {
    const back = cameBack.current;
    if (!back || Date.now() - back.at > CATCH_UP_MS) return;
    if (new Date(event.completedAt).getTime() > back.at) return;
    setMissed((list) =>
      list.some((m) => m.id === event.workRequestId)
        ? list
        : [...list, { id: event.workRequestId, status: event.status, result: event.result }],
    );
  });

  if (down && state) {
    return (
      <div className="offline-banner" role="status" data-testid="offline-banner">
        <CloudOff size={16} aria-hidden="true" className="tone-attention" />
        <div className="offline-banner-text">
          <strong>Offline.</strong> Debusine Desktop cannot reach the server
          {state.error ? ` (${state.error.message})` : ''}.{' '}
          {seconds !== null
            ? seconds > 0
              ? `Next attempt in ${String(seconds)} s.`
              : 'Reconnecting…'
            : 'It reconnects by itself.'}{' '}
          Completions that happen meanwhile are shown when it is back.
        </div>
      </div>
    );
  }
  if (!showBack) return null;
  return (
    <div className="offline-banner back" role="status" data-testid="back-online-banner">
      <CircleCheck size={16} aria-hidden="true" className="tone-success" />
      <div className="offline-banner-text">
        <strong>Back online.</strong>{' '}
        {missed.length === 0
          ? 'Nothing ended while the app was offline.'
          : `${String(missed.length)} ended while the app was offline:`}
        {missed.length > 0 ? (
          <ul>
            {missed.slice(0, 6).map((m) => (
              <li key={m.id}>
                <OpenButton kind="work-request" id={m.id} className="link-button mono" />{' '}
                <StatusBadge status={m.status} result={m.result} />
              </li>
            ))}
            {missed.length > 6 ? <li className="muted">and {missed.length - 6} more</li> : null}
          </ul>
        ) : null}
      </div>
      <button
        type="button"
        className="button small ghost"
        aria-label="Dismiss"
        onClick={() => {
          setShowBack(false);
          setMissed([]);
        }}
      >
        <X size={14} aria-hidden="true" />
      </button>
    </div>
  );
}
