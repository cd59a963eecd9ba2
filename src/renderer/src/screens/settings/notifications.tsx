import { NotBuiltYet } from '../placeholder';

/** Settings for what notifies (issue 8): rendered inside the Settings screen. */
export function NotificationSettingsSection(): React.JSX.Element {
  return <NotBuiltYet what="Notification settings" />;
}
