import { NotBuiltYet } from '../placeholder';

export function CollectionsScreen(): React.JSX.Element {
  return <NotBuiltYet what="The collection editor" />;
}
