import type { LucideIcon } from 'lucide-react';

/** One action on a table row: its verb, its icon, and what it does. */
export interface RowAction {
  verb: string;
  Icon: LucideIcon;
  run: () => void;
}

/**
 * A table row's action buttons. Each is named by its verb and the row's `subject` ("Download
 * build.log", "Edit debian"), so that a screen reader tells apart the same button on every
 * row. `look` says how they show: `labelled`, a small button with its icon and verb; `icon`,
 * the icon alone, the verb as its tooltip.
 */
export function RowActionButtons(props: {
  actions: readonly RowAction[];
  subject: string;
  look: 'labelled' | 'icon';
  disabled?: boolean;
}): React.JSX.Element {
  const labelled = props.look === 'labelled';
  return (
    <>
      {props.actions.map(({ verb, Icon, run }) => (
        <button
          key={verb}
          type="button"
          className={labelled ? 'button small' : 'icon-button'}
          disabled={props.disabled}
          aria-label={`${verb} ${props.subject}`}
          title={labelled ? undefined : verb}
          onClick={run}
        >
          <Icon size={labelled ? 13 : 14} aria-hidden="true" />
          {labelled ? verb : null}
        </button>
      ))}
    </>
  );
}
