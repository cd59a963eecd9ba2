import { NotBuiltYet } from '../placeholder';

export function UploadScreen(): React.JSX.Element {
  return <NotBuiltYet what="Uploading" />;
}
