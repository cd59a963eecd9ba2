import { CircleCheck, CircleSlash, LogOut, RefreshCw, type LucideIcon } from 'lucide-react';

export type ConnectionState = 'connected' | 'reconnecting' | 'offline' | 'signed-out';

const STATES: Record<ConnectionState, { label: string; icon: LucideIcon; tone: string }> = {
  connected: { label: 'Connected', icon: CircleCheck, tone: 'success' },
  reconnecting: { label: 'Reconnecting', icon: RefreshCw, tone: 'attention' },
  offline: { label: 'Offline', icon: CircleSlash, tone: 'muted' },
  'signed-out': { label: 'Signed out', icon: LogOut, tone: 'muted' },
};

/** The connection state as an icon, a word and a colour: never colour alone. */
export function ConnectionIndicator(props: {
  state: ConnectionState;
  detail?: string;
}): React.JSX.Element {
  const { label, icon: Icon, tone } = STATES[props.state];
  return (
    <span className={`indicator tone-${tone}`} role="status" aria-live="polite">
      <Icon size={14} aria-hidden="true" />
      <span>{label}</span>
      {props.detail ? <span className="indicator-detail">{props.detail}</span> : null}
    </span>
  );
}
