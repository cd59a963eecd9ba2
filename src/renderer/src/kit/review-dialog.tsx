import { Save } from 'lucide-react';
import { DiffView } from '@renderer/components/diff-view';
import { ChoiceDialog, type Choice } from '@renderer/components/modal-dialog';

/**
 * "Review changes": the diff between the server's version and the edit, shown before the
 * save is sent. Saving closes it; a refused save leaves the edit as it was.
 */
export function ReviewDialog(
  props: Choice & { before: string; after: string; saving: boolean; confirmLabel?: string },
): React.JSX.Element {
  return (
    <ChoiceDialog
      choice={props}
      className="dialog review-dialog"
      titleId="review-dialog-title"
      cancelLabel="Keep editing"
      confirm={{
        className: 'button primary',
        disabled: props.saving,
        autoFocus: true,
        content: (
          <>
            <Save size={14} aria-hidden="true" />
            {props.saving ? 'Saving…' : (props.confirmLabel ?? 'Save to server')}
          </>
        ),
      }}
    >
      {props.open ? (
        <DiffView before={props.before} after={props.after} label={props.title} />
      ) : null}
    </ChoiceDialog>
  );
}
