import { NotBuiltYet } from '../placeholder';

export function WorkspacesScreen(): React.JSX.Element {
  return <NotBuiltYet what="The workspace editor" />;
}
