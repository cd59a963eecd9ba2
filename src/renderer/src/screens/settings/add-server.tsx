import { useId, useState } from 'react';
import { LogOut } from 'lucide-react';
import type { ServerProfile } from '@shared/contract';
import { isDebusineError } from '@shared/errors';
import { useMutationOf } from '@renderer/queries/hooks';
import { serverMutations } from '@renderer/queries/servers';
import { ErrorState } from '@renderer/kit/errors/error-state';

interface Fields {
  name: string;
  apiUrl: string;
  scope: string;
  defaultWorkspace: string;
}

/** The profile the form's text describes: trimmed, empty scope and workspace left unset. */
function profileFields(f: Fields) {
  return {
    name: f.name.trim(),
    apiUrl: f.apiUrl.trim(),
    scope: f.scope.trim() || null,
    defaultWorkspace: f.defaultWorkspace.trim() || null,
  };
}

type FieldErrors = Partial<Record<keyof Fields, string>>;

function check(fields: Fields): FieldErrors {
  const errors: FieldErrors = {};
  if (!fields.name.trim()) errors.name = 'Give the server a name.';
  try {
    const url = new URL(fields.apiUrl.trim());
    if (!['http:', 'https:'].includes(url.protocol)) errors.apiUrl = 'Use an http(s) URL.';
    else if (!/\/api\/?$/.test(url.pathname))
      errors.apiUrl = 'The API URL usually ends in /api, e.g. https://debusine.debian.net/api.';
  } catch {
    errors.apiUrl = 'Enter the server’s API URL, e.g. https://debusine.debian.net/api.';
  }
  return errors;
}

/** Field errors the server or main reported, by our field names. */
function serverFieldErrors(error: unknown): FieldErrors {
  if (!isDebusineError(error) || error.code !== 'validation') return {};
  const field = error.details.field;
  const known: (keyof Fields)[] = ['name', 'apiUrl', 'scope', 'defaultWorkspace'];
  const match = known.find((k) => field === k);
  return match ? { [match]: error.message } : {};
}

function ServerFields(props: {
  fields: Fields;
  errors: FieldErrors;
  onChange: (fields: Fields) => void;
}): React.JSX.Element {
  const id = useId();
  const field = (key: keyof Fields, label: string, hint: string, placeholder = '') => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        className={key === 'apiUrl' ? 'input mono' : 'input'}
        value={props.fields[key]}
        placeholder={placeholder}
        spellCheck={false}
        aria-invalid={props.errors[key] ? true : undefined}
        aria-describedby={`${id}-${key}-hint`}
        onChange={(event) => {
          props.onChange({ ...props.fields, [key]: event.target.value });
        }}
      />
      <span id={`${id}-${key}-hint`} className={props.errors[key] ? 'field-error' : 'field-hint'}>
        {props.errors[key] ?? hint}
      </span>
    </div>
  );
  return (
    <div className="server-fields">
      {field(
        'apiUrl',
        'API URL',
        'Where the server’s API lives.',
        'https://debusine.example.org/api',
      )}
      {field('scope', 'Scope', 'The scope to work in, e.g. debian.', 'debusine')}
      {field('name', 'Name', 'How the app calls this server.', 'My server')}
      {field(
        'defaultWorkspace',
        'Default workspace',
        'Optional: where uploads go by default.',
        'System',
      )}
    </div>
  );
}

/** Adds a server by its API URL and scope; signing in follows (enroll or token). */
export function AddServerForm(props: {
  firstStart: boolean;
  onCancel?: (() => void) | undefined;
  onAdded: (profile: ServerProfile) => void;
}): React.JSX.Element {
  const [fields, setFields] = useState<Fields>({
    name: '',
    apiUrl: '',
    scope: '',
    defaultWorkspace: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const add = useMutationOf(serverMutations.add, {
    onSuccess: (profile) => {
      props.onAdded(profile);
    },
    onError: (error) => {
      setErrors(serverFieldErrors(error));
    },
  });
  const onSubmit = (event: React.SyntheticEvent): void => {
    event.preventDefault();
    const found = check(fields);
    setErrors(found);
    // The first server becomes the active one.
    if (Object.keys(found).length === 0) {
      add.mutate({ ...profileFields(fields), makeActive: props.firstStart });
    }
  };
  const autoName = (next: Fields): Fields => {
    if (fields.name !== '' && fields.name !== hostName(fields.apiUrl)) return next;
    return { ...next, name: hostName(next.apiUrl) };
  };
  return (
    <form className="server-form" aria-labelledby="add-server-title" onSubmit={onSubmit} noValidate>
      <h3 id="add-server-title">{props.firstStart ? 'Or add a server' : 'Add a server'}</h3>
      <ServerFields
        fields={fields}
        errors={errors}
        onChange={(next) => {
          setFields(next.apiUrl !== fields.apiUrl ? autoName(next) : next);
        }}
      />
      {add.isError && Object.keys(serverFieldErrors(add.error)).length === 0 ? (
        <ErrorState error={add.error} />
      ) : null}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add server'}
        </button>
        {props.onCancel ? (
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/**
 * Edits a profile in place. The token is kept unless the address moves to another origin
 * (scheme, host or port): main drops it then, since a token belongs to the server that
 * issued it, and the form says so before saving.
 */
export function EditServerForm(props: {
  server: ServerProfile;
  onDone: () => void;
}): React.JSX.Element {
  const [fields, setFields] = useState<Fields>({
    name: props.server.name,
    apiUrl: props.server.apiUrl,
    scope: props.server.scope ?? '',
    defaultWorkspace: props.server.defaultWorkspace ?? '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const update = useMutationOf(serverMutations.update, {
    onSuccess: () => {
      props.onDone();
    },
    onError: (error) => {
      setErrors(serverFieldErrors(error));
    },
  });
  return (
    <form
      className="server-form inline"
      aria-label={`Edit ${props.server.name}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const found = check(fields);
        setErrors(found);
        if (Object.keys(found).length === 0) {
          update.mutate({ id: props.server.id, ...profileFields(fields) });
        }
      }}
    >
      <ServerFields fields={fields} errors={errors} onChange={setFields} />
      <div role="status">
        {movesOrigin(props.server.apiUrl, fields.apiUrl) ? (
          <p className="server-form-note">
            <LogOut size={16} aria-hidden="true" className="tone-attention" />
            Changing the address signs you out of this server: you will sign in again.
          </p>
        ) : null}
      </div>
      {update.isError && Object.keys(serverFieldErrors(update.error)).length === 0 ? (
        <ErrorState error={update.error} />
      ) : null}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={update.isPending}>
          Save
        </button>
        <button type="button" className="button" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Whether `next` is on another origin than `saved` (an address still being typed is not). */
function movesOrigin(saved: string, next: string): boolean {
  try {
    return new URL(saved).origin !== new URL(next.trim()).origin;
  } catch {
    return false;
  }
}

function hostName(apiUrl: string): string {
  try {
    return new URL(apiUrl.trim()).hostname;
  } catch {
    return '';
  }
}
