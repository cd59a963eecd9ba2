import { NotBuiltYet } from '../placeholder';

export function WorkRequestsScreen(): React.JSX.Element {
  return <NotBuiltYet what="The work request list" />;
}
