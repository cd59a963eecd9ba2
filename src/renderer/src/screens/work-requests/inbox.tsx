import type { UseQueryResult } from '@tanstack/react-query';
import { Bell, CircleCheck, Hand, Hourglass, PenLine } from 'lucide-react';
import { OpenButton } from '@renderer/kit/open-button';
import { EmptyState } from '@renderer/components/empty-state';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import { StatusBadge } from '@renderer/components/status-badge';
import { TimeAgo } from '@renderer/components/time-ago';
import { rootOf, waitingKind } from './model';
import { useNeedsMe, useRecentNotifications } from '@renderer/queries/work-requests';

const ASK = {
  sign: { icon: PenLine, text: 'Waits for your signature', action: 'Sign…' },
  confirm: { icon: Hand, text: 'Waits for your confirmation', action: 'Review…' },
  unblock: { icon: Hourglass, text: 'Waits to be unblocked', action: 'Review…' },
} as const;

/**
 * A list of cards over one query: its loading, error and empty states, then `children` with
 * the loaded items (never empty).
 */
function CardList<T>(props: {
  query: UseQueryResult<T[]>;
  loading: string;
  empty: React.ReactNode;
  children: (items: T[]) => React.ReactNode;
}): React.ReactNode {
  const { query } = props;
  if (query.isPending) return <LoadingState label={props.loading} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return props.empty;
  return props.children(query.data);
}

/** "Needs me": steps waiting for the user's input or signature. */
export function NeedsMeInbox(): React.JSX.Element {
  const query = useNeedsMe();
  return (
    <CardList
      query={query}
      loading="Looking for steps that need you…"
      empty={
        <EmptyState icon={CircleCheck} title="Nothing needs you">
          Steps that wait for your signature, confirmation or a manual unblock appear here.
        </EmptyState>
      }
    >
      {(items) => (
        <ul className="wr-cards" aria-label="Steps that need you" data-testid="needs-me">
          {items.map((wr) => {
            const ask = ASK[waitingKind(wr) ?? 'unblock'];
            const Icon = ask.icon;
            return (
              <li key={wr.id} className="wr-card" data-testid={`needs-me-${String(wr.id)}`}>
                <Icon size={18} aria-hidden="true" className="tone-attention" />
                <div className="wr-card-main">
                  <div className="wr-card-title">
                    <span>{ask.text}</span>
                    <span className="mono muted">#{wr.id}</span>
                  </div>
                  <div className="wr-card-meta">
                    {wr.task_name} ({wr.task_type}) in {wr.workspace}
                    {rootOf(wr) ? ` · workflow #${String(rootOf(wr))}` : ''} · waiting since{' '}
                    <TimeAgo iso={wr.started_at ?? wr.created_at} />
                  </div>
                </div>
                <div className="wr-card-actions">
                  <OpenButton
                    kind="work-request"
                    id={wr.id}
                    className="button small primary"
                    aria-label={`${ask.action.replace('…', '')} work request ${String(wr.id)}`}
                  >
                    {ask.action}
                  </OpenButton>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </CardList>
  );
}

/** The notifications main showed (or, without a desktop, would have shown). */
export function RecentNotifications(): React.JSX.Element {
  const query = useRecentNotifications();
  return (
    <CardList
      query={query}
      loading="Loading notifications…"
      empty={
        <EmptyState icon={Bell} title="No notifications yet">
          When watched work finishes, its notification is listed here as well. Choose what notifies
          in Settings.
        </EmptyState>
      }
    >
      {(items) => (
        <ul
          className="wr-cards"
          aria-label="Recent notifications"
          data-testid="recent-notifications"
        >
          {items.map((n) => (
            <li
              key={`${String(n.workRequestId)}-${n.shownAt}`}
              className="wr-card"
              data-testid={`notification-${String(n.workRequestId)}`}
            >
              <span className="wr-card-status">
                <StatusBadge status="completed" result={n.result} />
              </span>
              <div className="wr-card-main">
                <div className="wr-card-title">{n.title}</div>
                <div className="wr-card-meta">
                  {n.body} · <TimeAgo iso={n.shownAt} />
                </div>
              </div>
              <div className="wr-card-actions">
                <OpenButton
                  kind="work-request"
                  id={n.workRequestId}
                  className="button small"
                  aria-label={`Open work request ${String(n.workRequestId)}`}
                >
                  Open <span className="mono">#{n.workRequestId}</span>
                </OpenButton>
              </div>
            </li>
          ))}
        </ul>
      )}
    </CardList>
  );
}
