import { CircleDot, Eye, X } from 'lucide-react';

/**
 * The foot of an editor's form: an "Unsaved changes" note (when editing an existing object),
 * Close/Discard, and the submit button that opens the review.
 */
export function EditorActions(props: {
  dirty: boolean;
  /** Editing an object the server has (not a new one). */
  existing: boolean;
  canSave: boolean;
  onClose: () => void;
}): React.JSX.Element {
  const { dirty, existing } = props;
  return (
    <div className="form-actions">
      {existing ? <DirtyNote dirty={dirty} /> : null}
      <span className="spacer" />
      <button type="button" className="button" onClick={props.onClose}>
        <X size={14} aria-hidden="true" />
        {dirty ? 'Discard' : 'Close'}
      </button>
      <button
        type="submit"
        className="button primary"
        disabled={!props.canSave || (existing && !dirty)}
      >
        <Eye size={14} aria-hidden="true" />
        Review and save…
      </button>
    </div>
  );
}

/** Says that an editor holds changes not yet saved, while it does. */
export function DirtyNote(props: { dirty: boolean }): React.JSX.Element | null {
  return props.dirty ? (
    <span className="dirty-note">
      <CircleDot size={12} aria-hidden="true" />
      Unsaved changes
    </span>
  ) : null;
}

/** A field's messages, one a line. */
export function FieldErrors(props: { messages: readonly string[] }): React.JSX.Element {
  return (
    <>
      {props.messages.map((m) => (
        <span key={m} className="field-error">
          {m}
        </span>
      ))}
    </>
  );
}
