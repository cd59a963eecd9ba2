import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';

/** The list side of a split: the list's title, count and `actions` over the list. */
export function ListPane(props: {
  /** The heading's id, which labels the pane. */
  titleId: string;
  title: string;
  count: number;
  actions: ReactNode;
  children: ReactNode;
}): React.JSX.Element {
  return (
    <section className="pane" aria-labelledby={props.titleId}>
      <div className="pane-header">
        <h2 id={props.titleId}>
          {props.title} <span className="count-badge">{props.count}</span>
        </h2>
        {props.actions}
      </div>
      {props.children}
    </section>
  );
}

/** A list's icon-only reload button; it spins while `fetching`. */
export function ReloadButton(props: {
  label: string;
  title?: string;
  fetching?: boolean;
  disabled?: boolean;
  onClick: () => void;
}): React.JSX.Element {
  return (
    <button
      type="button"
      className="button small icon-only ghost"
      aria-label={props.label}
      title={props.title ?? 'Reload'}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      <RefreshCw size={14} aria-hidden="true" className={props.fetching ? 'spin' : ''} />
    </button>
  );
}
