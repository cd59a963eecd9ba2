import { LoaderCircle } from 'lucide-react';

export function LoadingState(props: { label?: string }): React.JSX.Element {
  return (
    <div className="loading-state" role="status" aria-live="polite">
      <LoaderCircle size={16} aria-hidden="true" className="spin" />
      <span>{props.label ?? 'Loading…'}</span>
    </div>
  );
}
