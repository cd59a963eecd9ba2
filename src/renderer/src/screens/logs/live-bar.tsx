/**
 * The bar above a live log: whether it is still arriving, following the tail (and the
 * button that follows it again), and, when the server will not stream it or it broke off,
 * why in one line with "Open in browser"; below it, a line for each notice that output may
 * be missing or repeated.
 */
import { ArrowDownToLine, ExternalLink, Radio } from 'lucide-react';
import type { LiveLogInfo } from '@shared/log-types';
import { visibleText } from '@shared/visible-text';

function statusText(live: LiveLogInfo): string {
  switch (live.status) {
    case 'connecting':
      return 'Connecting to the live log…';
    case 'streaming':
      return 'Live: the step is running';
    case 'ended':
      return 'The step ended: opening its stored log…';
    default:
      return live.message ?? 'The live log stopped.';
  }
}

export function LiveBar(props: {
  live: LiveLogInfo;
  follow: boolean;
  onFollow: () => void;
  onOpenInBrowser: () => void;
}): React.JSX.Element {
  const { live } = props;
  const streaming = live.status === 'connecting' || live.status === 'streaming';
  const problem = live.status === 'refused' || live.status === 'lost';
  return (
    <>
      <div
        className={`live-bar${problem ? ' live-bar-problem' : ''}`}
        role="status"
        data-testid="live-bar"
        data-status={live.status}
      >
        <span className={`live-dot${streaming ? ' live-dot-on' : ''}`} aria-hidden="true">
          <Radio size={13} />
        </span>
        <span className="live-status">{visibleText(statusText(live))}</span>
        {live.status !== 'streaming' && live.message && !problem ? (
          <span className="muted">{visibleText(live.message)}</span>
        ) : null}
        <span className="live-grow" />
        {streaming ? (
          <button
            type="button"
            className="button small"
            aria-pressed={props.follow}
            onClick={props.onFollow}
            title="Keep the newest line on screen; scrolling up stops it"
          >
            <ArrowDownToLine size={13} aria-hidden="true" />
            {props.follow ? 'Following' : 'Follow'}
          </button>
        ) : null}
        {problem || live.status === 'stopped' ? (
          <button type="button" className="button small" onClick={props.onOpenInBrowser}>
            <ExternalLink size={13} aria-hidden="true" />
            Open in browser
          </button>
        ) : null}
      </div>
      {live.notices.map((notice) => (
        <div key={notice} className="live-notice" role="alert" data-testid="live-notice">
          {visibleText(notice)}
        </div>
      ))}
    </>
  );
}
