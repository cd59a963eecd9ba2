import { CheckField } from '@renderer/components/check-field';
import { ChoiceSelect } from '@renderer/components/choice-select';
import { useAppQuery } from '@renderer/queries/hooks';
import { uploadQueries } from '@renderer/queries/uploads';

export interface Expiry {
  preset: 'never' | '1' | '7' | '30' | 'custom';
  /** datetime-local value, for `custom`. */
  custom: string;
}

const EXPIRY_PRESETS: readonly Expiry['preset'][] = ['never', '1', '7', '30', 'custom'];
const EXPIRY_LABELS: Readonly<Record<Expiry['preset'], string>> = {
  never: 'Never (workspace default)',
  1: 'In 1 day',
  7: 'In 7 days',
  30: 'In 30 days',
  custom: 'At a date…',
};

export function expiryToIso(expiry: Expiry): string | null {
  if (expiry.preset === 'never') return null;
  if (expiry.preset === 'custom') {
    const time = new Date(expiry.custom).getTime();
    return Number.isNaN(time) || time <= Date.now() ? null : new Date(time).toISOString();
  }
  return new Date(Date.now() + Number(expiry.preset) * 86_400_000).toISOString();
}

/** Where the artifact goes and how long it lives; whether remote files may be referenced. */
export function UploadOptions(props: {
  idPrefix: string;
  workspace: string;
  onWorkspace: (workspace: string) => void;
  expiry: Expiry;
  onExpiry: (expiry: Expiry) => void;
  allowRemote: boolean;
  onAllowRemote: (allow: boolean) => void;
  busy: boolean;
}): React.JSX.Element {
  const id = props.idPrefix;
  // Workspaces this app has already uploaded to, as suggestions (the API has no list).
  const jobs = useAppQuery(uploadQueries.jobs);
  const known = [...new Set((jobs.data ?? []).map((j) => j.workspace).filter(Boolean))];
  const customInvalid = props.expiry.preset === 'custom' && expiryToIso(props.expiry) === null;
  return (
    <fieldset className="upload-options">
      <legend>Upload options</legend>
      <div className="field">
        <label htmlFor={`${id}-ws`}>Workspace</label>
        <input
          id={`${id}-ws`}
          className="input mono"
          list={`${id}-ws-list`}
          value={props.workspace}
          placeholder="The server’s default"
          spellCheck={false}
          onChange={(event) => {
            props.onWorkspace(event.target.value);
          }}
        />
        <datalist id={`${id}-ws-list`}>
          {known.map((w) => (
            <option key={w} value={w} />
          ))}
        </datalist>
      </div>
      <div className="field">
        <label htmlFor={`${id}-exp`}>Expires</label>
        <ChoiceSelect
          id={`${id}-exp`}
          className="select"
          value={props.expiry.preset}
          choices={EXPIRY_PRESETS}
          labels={EXPIRY_LABELS}
          onChange={(preset) => {
            props.onExpiry({ ...props.expiry, preset });
          }}
        />
        {props.expiry.preset === 'custom' ? (
          <>
            <label htmlFor={`${id}-exp-at`} className="visually-hidden">
              Expiry date and time
            </label>
            <input
              id={`${id}-exp-at`}
              type="datetime-local"
              className="input"
              value={props.expiry.custom}
              aria-invalid={customInvalid ? true : undefined}
              aria-describedby={`${id}-exp-hint`}
              onChange={(event) => {
                props.onExpiry({ ...props.expiry, custom: event.target.value });
              }}
            />
            <span id={`${id}-exp-hint`} className={customInvalid ? 'field-error' : 'field-hint'}>
              {customInvalid ? 'Choose a time in the future.' : 'Local time.'}
            </span>
          </>
        ) : null}
      </div>
      <CheckField
        className="check"
        checked={props.allowRemote}
        disabled={props.busy}
        onCheckedChange={props.onAllowRemote}
      >
        <span>
          Allow remote files
          <span className="field-hint block">
            Listed files that are not here are declared as already on the server. Before anything is
            sent, each must be in an artifact this app uploaded to the same workspace, and the
            server must still hold it.
          </span>
        </span>
      </CheckField>
    </fieldset>
  );
}
