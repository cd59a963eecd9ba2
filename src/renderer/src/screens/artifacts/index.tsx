import { NotBuiltYet } from '../placeholder';

export function ArtifactsScreen(): React.JSX.Element {
  return <NotBuiltYet what="The artifact browser" />;
}
