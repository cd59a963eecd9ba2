import { LogIn } from 'lucide-react';
import { EmptyState } from '../components/empty-state';
import { useUiStore } from '../state/ui-store';

/** What an area shows before its screen is built: an honest empty state, not a fake one. */
export function NotBuiltYet(props: { what: string }): React.JSX.Element {
  const setArea = useUiStore((s) => s.setArea);
  return (
    <EmptyState
      icon={LogIn}
      title={`${props.what} is not available yet`}
      action={
        <button
          type="button"
          className="button"
          onClick={() => {
            setArea('settings');
          }}
        >
          Go to Settings
        </button>
      }
    >
      This part of Debusine Desktop is still being built.
    </EmptyState>
  );
}
