/**
 * The Queue tab: the server's workers and work per architecture, as `service-status/`
 * counts them for anyone (the web's "Task queue"). An architecture with pending work and no
 * worker connected is the one where nothing can start, and says so.
 */
import { Server } from 'lucide-react';
import { EmptyState } from '@renderer/components/empty-state';
import { LoadingState } from '@renderer/components/loading-state';
import { TableHead } from '@renderer/components/table-head';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { useServerQuery } from '@renderer/queries/hooks';
import { queueQueries } from '@renderer/queries/queue';

export function QueueView(): React.JSX.Element {
  const status = useServerQuery((scope) => queueQueries.status(scope));
  if (status.isPending) return <LoadingState label="Reading the server’s queue…" />;
  if (status.isError) {
    return <ErrorState error={status.error} onRetry={() => void status.refetch()} />;
  }
  const { architectures, unavailable } = status.data;
  if (unavailable !== null) {
    return (
      <EmptyState icon={Server} title="The server does not count its queue">
        {unavailable}
      </EmptyState>
    );
  }
  if (architectures.length === 0) {
    return (
      <EmptyState icon={Server} title="No workers">
        No external worker has registered with this server.
      </EmptyState>
    );
  }
  return (
    <div className="queue-view">
      <table className="table" aria-label="Queue per architecture">
        <TableHead
          widths={[null, 170, 90, 90, 90, 90]}
          columns={['Architecture', 'Workers connected', 'Busy', 'Idle', 'Pending', 'Running']}
        />
        <tbody>
          {architectures.map((a) => {
            const stuck = a.pending > 0 && a.workers.connected === 0;
            return (
              <tr key={a.name} className={stuck ? 'queue-stuck' : undefined}>
                <td>
                  <span className="mono">{a.name}</span>
                  {stuck ? (
                    <span className="queue-stuck-note"> no worker connected: nothing starts</span>
                  ) : null}
                </td>
                <td className="mono">
                  {a.workers.connected} <span className="muted">of {a.workers.registered}</span>
                </td>
                <td className="mono">{a.workers.busy}</td>
                <td className="mono">{a.workers.idle}</td>
                <td className="mono">{a.pending}</td>
                <td className="mono">{a.running}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted queue-view-note">
        Counted by the server for all users: work you cannot see is included. Read again every 10 s.
      </p>
    </div>
  );
}
