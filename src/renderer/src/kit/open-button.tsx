import { useOpen } from './navigation';

/**
 * A button that opens the page of a work request or of an artifact. Wherever the app names
 * one by id (a tree, a card, a banner, a waiting step), clicking the name opens its page the
 * same way. Without children it reads `#id`; `id` is the one to open, every other prop goes to
 * the button.
 */
export function OpenButton({
  kind,
  id,
  children,
  ...button
}: {
  kind: 'work-request' | 'artifact';
  id: number;
  children?: React.ReactNode;
} & Omit<
  React.ButtonHTMLAttributes<HTMLButtonElement>,
  'type' | 'onClick' | 'id'
>): React.JSX.Element {
  const { openArtifact, openWorkRequest } = useOpen();
  const open = kind === 'artifact' ? openArtifact : openWorkRequest;
  return (
    <button
      type="button"
      {...button}
      onClick={() => {
        open(id);
      }}
    >
      {children ?? <>#{id}</>}
    </button>
  );
}
