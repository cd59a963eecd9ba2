import { NotBuiltYet } from '../placeholder';

export function TemplatesScreen(): React.JSX.Element {
  return <NotBuiltYet what="The template editor" />;
}
