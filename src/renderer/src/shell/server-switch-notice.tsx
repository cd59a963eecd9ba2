import { ArrowLeftRight, X } from 'lucide-react';
import { useServerSwitchNotice } from '@renderer/state/server-switch-notice';
import './offline-banner.css';

/**
 * "Switched to server X (host)": shown when main made another server active to open what
 * was asked (a link, a notification), until dismissed or the next switch replaces it.
 */
export function ServerSwitchNotice(): React.JSX.Element | null {
  const switchedTo = useServerSwitchNotice((s) => s.switchedTo);
  const dismiss = useServerSwitchNotice((s) => s.dismiss);
  if (!switchedTo) return null;
  return (
    <div className="offline-banner" role="status" data-testid="server-switch-notice">
      <ArrowLeftRight size={16} aria-hidden="true" className="tone-attention" />
      <div className="offline-banner-text">
        <strong>Switched to server {switchedTo.name}</strong>{' '}
        {/* A server named after its host is named once. */}
        {switchedTo.name.toLowerCase() === switchedTo.host.toLowerCase() ? null : (
          <>
            <span className="mono">({switchedTo.host})</span>{' '}
          </>
        )}
        to open this.
      </div>
      <button type="button" className="button small ghost" aria-label="Dismiss" onClick={dismiss}>
        <X size={14} aria-hidden="true" />
      </button>
    </div>
  );
}
