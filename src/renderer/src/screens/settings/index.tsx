import { NotBuiltYet } from '../placeholder';

export function SettingsScreen(): React.JSX.Element {
  return <NotBuiltYet what="Server settings" />;
}
