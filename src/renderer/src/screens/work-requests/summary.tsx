import { Ban, CircleCheck, CircleSlash, CircleX, Hand, LoaderCircle } from 'lucide-react';
import { ABORTED, endOf, isActive, isUnsuccessfulEnd } from '@shared/results/end';
import { useConnection } from '@renderer/queries/session';
import { useNeedsMe, useWatchList } from '@renderer/queries/work-requests';

/**
 * The aggregate state the tray shows, for windows without a tray (GNOME on Wayland): what
 * is running, failed, aborted or waiting among watched work, and whether the server is
 * reachable. Shape and word, not colour alone. An aborted workflow has ended: it is not
 * running any more, and it did not succeed.
 */
export function AggregateState(): React.JSX.Element {
  const watch = useWatchList();
  const needsMe = useNeedsMe();
  const connection = useConnection();
  const entries = watch.data ?? [];
  const running = entries.filter((w) => w.lastStatus !== null && isActive(w.lastStatus)).length;
  const ends = entries.flatMap((w) => {
    const end =
      w.lastStatus === null ? null : endOf({ status: w.lastStatus, result: w.lastResult ?? '' });
    return end === null ? [] : [end];
  });
  const aborted = ends.filter((end) => end === ABORTED).length;
  const failed = ends.filter((end) => end !== ABORTED && isUnsuccessfulEnd(end)).length;
  const waiting = needsMe.data?.length ?? 0;
  const status = connection.data?.status;
  const offline = status === 'offline' || status === 'reconnecting';
  const allGood = !offline && running === 0 && failed === 0 && aborted === 0 && waiting === 0;
  return (
    <div
      className="wr-summary"
      role="status"
      aria-label="Watched work"
      data-testid="aggregate-state"
    >
      {offline ? (
        <span className="wr-summary-item tone-muted">
          <CircleSlash size={13} aria-hidden="true" /> Offline
        </span>
      ) : null}
      {running > 0 ? (
        <span className="wr-summary-item tone-accent">
          <LoaderCircle size={13} aria-hidden="true" /> {running} running
        </span>
      ) : null}
      {failed > 0 ? (
        <span className="wr-summary-item tone-danger">
          <CircleX size={13} aria-hidden="true" /> {failed} failed
        </span>
      ) : null}
      {aborted > 0 ? (
        <span className="wr-summary-item tone-attention">
          <Ban size={13} aria-hidden="true" /> {aborted} aborted
        </span>
      ) : null}
      {waiting > 0 ? (
        <span className="wr-summary-item tone-attention">
          <Hand size={13} aria-hidden="true" /> {waiting} need{waiting === 1 ? 's' : ''} input
        </span>
      ) : null}
      {allGood ? (
        <span className="wr-summary-item tone-success">
          <CircleCheck size={13} aria-hidden="true" /> All good
          {entries.length > 0 ? ` · ${String(entries.length)} watched` : ''}
        </span>
      ) : null}
    </div>
  );
}
