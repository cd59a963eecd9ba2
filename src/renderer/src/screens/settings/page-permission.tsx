import { Bell, BellOff, BellRing } from 'lucide-react';
import { useState } from 'react';
import {
  requestPagePermission,
  usePagePermission,
  type PagePermission,
} from '@renderer/kit/page-notifications';

const STATES: Record<
  PagePermission,
  { icon: typeof Bell; tone: string; word: string; detail: string }
> = {
  granted: {
    icon: BellRing,
    tone: 'tone-success',
    word: 'Allowed',
    detail: 'This browser shows the app’s notifications on your desktop.',
  },
  default: {
    icon: Bell,
    tone: 'tone-attention',
    word: 'Not asked yet',
    detail: 'The browser shows none until you allow them; it asks once.',
  },
  denied: {
    icon: BellOff,
    tone: 'tone-danger',
    word: 'Blocked',
    detail:
      'The browser will not ask again: allow notifications for this page in its site settings.',
  },
  unsupported: {
    icon: BellOff,
    tone: 'tone-muted',
    word: 'Not available',
    detail: 'This browser cannot show desktop notifications.',
  },
};

/**
 * Whether the browser the app runs in may show its desktop notifications, and the one
 * place that asks (the browser grants it only to a request made from a click).
 */
export function PagePermissionRow(): React.JSX.Element {
  const permission = usePagePermission();
  const [asking, setAsking] = useState(false);
  const { icon: Icon, tone, word, detail } = STATES[permission];
  return (
    <fieldset data-testid="page-notification-permission">
      <legend>Desktop notifications in this browser</legend>
      <div className="ns-row">
        <Icon size={15} aria-hidden="true" className={tone} />
        <span>
          <strong data-testid="page-notification-state">{word}.</strong> {detail}
        </span>
        {permission === 'default' ? (
          <button
            type="button"
            className="button small primary"
            disabled={asking}
            onClick={() => {
              setAsking(true);
              void requestPagePermission().finally(() => {
                setAsking(false);
              });
            }}
          >
            Allow desktop notifications…
          </button>
        ) : null}
      </div>
      {permission !== 'granted' ? (
        <p className="field-hint">
          Every notification is still listed under Work requests › Notifications.
        </p>
      ) : null}
    </fieldset>
  );
}
