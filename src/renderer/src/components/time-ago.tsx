import { useCallback, useSyncExternalStore } from 'react';
import { clockNow, subscribeClock } from './clock';
import { formatDateTime, formatRelative } from './format';

/**
 * A relative time with the exact one on hover and for screen readers. It follows the
 * shared clock: "3 seconds ago" becomes "2 minutes ago" while it stays on screen.
 */
export function TimeAgo(props: { iso: string | null | undefined }): React.JSX.Element {
  const { iso } = props;
  // The words, not the time, are the snapshot: a tick that leaves them as they were
  // re-renders nothing.
  const words = useSyncExternalStore(
    subscribeClock,
    useCallback(() => formatRelative(iso, clockNow()), [iso]),
  );
  if (!iso) return <span className="muted">—</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {words}
    </time>
  );
}
