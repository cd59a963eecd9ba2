import { Bell, GitBranch, Hand, List, Server } from 'lucide-react';
import { useRef, type KeyboardEvent } from 'react';
import { useDetail } from '@renderer/kit/navigation';
import { NeedsMeInbox, RecentNotifications } from './inbox';
import { WorkRequestList } from './list';
import { WorkRequestPage } from './page';
import { QueueView } from './queue-view';
import { useNeedsMe } from '@renderer/queries/work-requests';
import { AggregateState } from './summary';
import { useViewsStore, type WorkRequestsTab } from './views-store';
import { WorkflowList } from './workflows';
import './work-requests.css';

const TABS: { id: WorkRequestsTab; label: string; icon: typeof List }[] = [
  { id: 'list', label: 'All work requests', icon: List },
  { id: 'workflows', label: 'Workflows', icon: GitBranch },
  { id: 'inbox', label: 'Needs me', icon: Hand },
  { id: 'notifications', label: 'Notifications', icon: Bell },
  { id: 'queue', label: 'Queue', icon: Server },
];

/** The Work requests area: the list and its tabs, or one work request's page. */
export function WorkRequestsScreen(): React.JSX.Element {
  const detail = useDetail();
  if (detail?.kind === 'work-request') {
    return <WorkRequestPage key={detail.id} id={detail.id} />;
  }
  return <Tabs />;
}

function Tabs(): React.JSX.Element {
  const tab = useViewsStore((s) => s.tab);
  const setTab = useViewsStore((s) => s.setTab);
  const needsMe = useNeedsMe();
  const waiting = needsMe.data?.length ?? 0;
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  // Arrow keys move between tabs (the WAI-ARIA tabs pattern).
  const onKeyDown = (event: KeyboardEvent, index: number): void => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    const next = (index + step + TABS.length) % TABS.length;
    const target = TABS[next];
    if (!target) return;
    setTab(target.id);
    refs.current[next]?.focus();
  };
  return (
    <div className="wr-screen">
      <div className="wr-header">
        <div className="wr-tabs" role="tablist" aria-label="Work request views">
          {TABS.map((t, index) => {
            const Icon = t.icon;
            return (
              <button
                key={t.id}
                ref={(el) => {
                  refs.current[index] = el;
                }}
                type="button"
                role="tab"
                id={`wr-tab-${t.id}`}
                aria-selected={tab === t.id}
                aria-controls={`wr-panel-${t.id}`}
                tabIndex={tab === t.id ? 0 : -1}
                className="wr-tab"
                onClick={() => {
                  setTab(t.id);
                }}
                onKeyDown={(e) => {
                  onKeyDown(e, index);
                }}
              >
                <Icon size={14} aria-hidden="true" />
                {t.label}
                {t.id === 'inbox' && waiting > 0 ? (
                  <span className="wr-count attention" aria-label={`${String(waiting)} waiting`}>
                    {waiting}
                  </span>
                ) : null}
              </button>
            );
          })}
        </div>
        <AggregateState />
      </div>
      <div
        className="wr-panel"
        role="tabpanel"
        id={`wr-panel-${tab}`}
        aria-labelledby={`wr-tab-${tab}`}
      >
        {tab === 'list' ? <WorkRequestList /> : null}
        {tab === 'workflows' ? <WorkflowList /> : null}
        {tab === 'inbox' ? <NeedsMeInbox /> : null}
        {tab === 'notifications' ? <RecentNotifications /> : null}
        {tab === 'queue' ? <QueueView /> : null}
      </div>
    </div>
  );
}
