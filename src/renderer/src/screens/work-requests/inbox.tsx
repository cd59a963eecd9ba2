import type { UseQueryResult } from '@tanstack/react-query';
import { Bell, CircleCheck, Hand, Hourglass, PenLine, Radio, ScrollText } from 'lucide-react';
import type { NotificationRecord } from '@shared/contract';
import { lineNumber, type FailureReason } from '@shared/results/failure';
import { OpenButton } from '@renderer/kit/open-button';
import { EmptyState } from '@renderer/components/empty-state';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import { EndBadge } from '@renderer/components/status-badge';
import { TimeAgo } from '@renderer/components/time-ago';
import { useFailuresReadWhileShown } from '@renderer/kit/failures-read';
import { rootOf, waitingKind } from './model';
import { useNeedsMe, useRecentNotifications } from '@renderer/queries/work-requests';
import { useOpen } from '@renderer/kit/navigation';
import { NO_SERVER } from '@renderer/queries/define';
import { useScope } from '@renderer/queries/hooks';
import { useUiStore } from '@renderer/state/ui-store';

const ASK = {
  sign: { icon: PenLine, text: 'Waits for your signature', action: 'Sign and upload…' },
  confirm: { icon: Hand, text: 'Waits for your confirmation', action: 'Review…' },
  unblock: { icon: Hourglass, text: 'Waits to be unblocked', action: 'Review…' },
} as const;

/**
 * A list of cards over one query: its loading, error and empty states, then the cards that
 * `children` makes of the loaded items (never none).
 */
function CardList<T>(props: {
  query: UseQueryResult<T[]>;
  loading: string;
  empty: React.ReactNode;
  label: string;
  testId: string;
  children: (items: T[]) => React.ReactNode;
}): React.ReactNode {
  const { query } = props;
  if (query.isPending) return <LoadingState label={props.loading} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return props.empty;
  return (
    <ul className="row-list wr-cards" aria-label={props.label} data-testid={props.testId}>
      {props.children(query.data)}
    </ul>
  );
}

/** One card: what it is about, and a button (named by `actionLabel`) that opens its work. */
function Card(props: {
  testId: string;
  lead: React.ReactNode;
  title: React.ReactNode;
  meta: React.ReactNode;
  workRequestId: number;
  actionClass: string;
  actionLabel: string;
  action: React.ReactNode;
  /** Buttons before the one that opens the work request. */
  more?: React.ReactNode;
}): React.JSX.Element {
  return (
    <li className="wr-card" data-testid={props.testId}>
      {props.lead}
      <div className="wr-card-main">
        <div className="wr-card-title">{props.title}</div>
        <div className="wr-card-meta">{props.meta}</div>
      </div>
      <div className="wr-card-actions">
        {props.more}
        <OpenButton
          kind="work-request"
          id={props.workRequestId}
          className={props.actionClass}
          aria-label={props.actionLabel}
        >
          {props.action}
        </OpenButton>
      </div>
    </li>
  );
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
      label="Steps that need you"
      testId="needs-me"
    >
      {(items) =>
        items.map((wr) => {
          const ask = ASK[waitingKind(wr) ?? 'unblock'];
          const Icon = ask.icon;
          return (
            <Card
              key={wr.id}
              testId={`needs-me-${String(wr.id)}`}
              lead={<Icon size={18} aria-hidden="true" className="tone-attention" />}
              title={
                <>
                  <span>{ask.text}</span>
                  <span className="mono muted">#{wr.id}</span>
                </>
              }
              meta={
                <>
                  {wr.task_name} ({wr.task_type}) in {wr.workspace}
                  {rootOf(wr) ? ` · workflow #${String(rootOf(wr))}` : ''} · waiting since{' '}
                  <TimeAgo iso={wr.started_at ?? wr.created_at} />
                </>
              }
              workRequestId={wr.id}
              actionClass="button small primary"
              actionLabel={`${ask.action.replace('…', '')} work request ${String(wr.id)}`}
              action={ask.action}
            />
          );
        })
      }
    </CardList>
  );
}

/** The notifications main showed (or, without a desktop, would have shown). */
export function RecentNotifications(): React.JSX.Element {
  const query = useRecentNotifications();
  useFailuresReadWhileShown();
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
      label="Recent notifications"
      testId="recent-notifications"
    >
      {(items) =>
        items.map((n) => (
          <Card
            key={`${String(n.workRequestId)}-${n.shownAt}`}
            testId={`notification-${String(n.workRequestId)}`}
            lead={
              <span className="wr-card-status">
                <EndBadge end={n.result} />
              </span>
            }
            title={n.title}
            meta={
              <>
                {n.body} · <TimeAgo iso={n.shownAt} />
              </>
            }
            workRequestId={n.workRequestId}
            more={
              // The line the desktop notification opens: where the build broke (for an early
              // warning, in the live log of the build still running).
              n.liveLine !== undefined ? (
                <OpenLiveLogButton record={n} line={n.liveLine} />
              ) : n.reason?.log ? (
                <OpenLogButton reason={n.reason} log={n.reason.log} />
              ) : null
            }
            actionClass="button small"
            actionLabel={`Open work request ${String(n.workRequestId)}`}
            action={
              <>
                Open <span className="mono">#{n.workRequestId}</span>
              </>
            }
          />
        ))
      }
    </CardList>
  );
}

/** An early warning's "Open log here": the live log at the line where the build broke. */
function OpenLiveLogButton(props: { record: NotificationRecord; line: number }): React.JSX.Element {
  const active = useScope() ?? NO_SERVER;
  const { record, line } = props;
  const id = record.workRequestId;
  return (
    <button
      type="button"
      className="button small"
      aria-label={`Open the live log of work request ${String(id)} at line ${String(line + 1)}`}
      onClick={() => {
        // On the server whose watcher warned: its work request ids are its own.
        useUiStore.getState().openLiveLog(record.serverId ?? active, id, line);
      }}
    >
      <Radio size={13} aria-hidden="true" />
      Open log here
    </button>
  );
}

function OpenLogButton(props: {
  reason: FailureReason;
  log: NonNullable<FailureReason['log']>;
}): React.JSX.Element {
  const { openLog } = useOpen();
  const { reason, log } = props;
  return (
    <button
      type="button"
      className="button small"
      aria-label={`Open the log of work request ${String(reason.workRequestId)} at line ${String(lineNumber(log.line))}`}
      onClick={() => {
        openLog({ ...log, workRequestId: reason.workRequestId });
      }}
    >
      <ScrollText size={13} aria-hidden="true" />
      Open log
    </button>
  );
}
