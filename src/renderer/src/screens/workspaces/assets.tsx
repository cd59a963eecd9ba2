/**
 * Assets of a workspace (signing keys, cloud accounts, APT credentials): a filtered list, a
 * create form with the data as YAML, and the permission check with the server's answer.
 */
import { CircleCheck, CircleX, KeyRound, Plus, Search, ShieldQuestion } from 'lucide-react';
import { useId, useState } from 'react';
import { EmptyState } from '@renderer/components/empty-state';
import { LoadingState } from '@renderer/components/loading-state';
import { TimeAgo } from '@renderer/components/time-ago';
import { useMutationOf, useServerQuery } from '@renderer/queries/hooks';
import { workspaceMutations, workspaceQueries } from '@renderer/queries/workspaces';
import { useUnsavedChanges } from '@renderer/state/leave-guard';
import {
  fieldMessages,
  otherFieldMessages,
  problemOf,
  type Problem,
} from '@renderer/kit/errors/problem';
import { FeatureError } from '@renderer/kit/errors/feature-error';
import { ProblemBanner } from '@renderer/kit/errors/problem-banner';
import { StructuredField } from '@renderer/kit/structured-field';
import { isPlainObject, sameJson } from '@renderer/kit/text';
import { TableHead } from '@renderer/components/table-head';

/**
 * The asset categories Debusine servers know, each with a starting point for its data (the
 * fields the server expects of that category).
 */
const CATEGORIES: Record<string, Record<string, unknown>> = {
  'debusine:signing-key': {
    purpose: 'openpgp',
    fingerprint: '',
    public_key: '',
    description: null,
  },
  'debusine:cloud-provider-account': {
    provider_type: 'aws',
    name: '',
    configuration: { region_name: '' },
    credentials: { access_key_id: '', secret_access_key: '' },
  },
  'debian:apt-authentication': {
    auth_scheme: 'basic',
    name: '',
    credentials: { username: '', password: '' },
  },
};

interface Filters {
  workspace: string;
  assetId: string;
  workRequest: string;
}

function numberOrUndefined(text: string): number | undefined {
  return /^\d+$/.test(text.trim()) && Number(text) > 0 ? Number(text) : undefined;
}

export function AssetsTab(props: { workspace: string }): React.JSX.Element {
  const [filters, setFilters] = useState<Filters>({
    workspace: props.workspace,
    assetId: '',
    workRequest: '',
  });
  const [applied, setApplied] = useState(filters);
  return (
    <div className="stack">
      <AssetList
        filters={applied}
        header={
          <form
            className="assets-filters"
            aria-label="Asset filters"
            onSubmit={(event) => {
              event.preventDefault();
              setApplied(filters);
            }}
          >
            {(
              [
                ['workspace', 'Workspace'],
                ['assetId', 'Asset id'],
                ['workRequest', 'Work request'],
              ] as const
            ).map(([key, label]) => (
              <Field
                key={key}
                label={label}
                value={filters[key]}
                inputMode={key === 'workspace' ? undefined : 'numeric'}
                onChange={(value) => {
                  setFilters({ ...filters, [key]: value });
                }}
              />
            ))}
            <button type="submit" className="button">
              <Search size={14} aria-hidden="true" />
              Filter
            </button>
          </form>
        }
      />
      <div className="split assets-forms">
        <CreateAsset workspace={props.workspace} />
        <PermissionCheck workspace={props.workspace} />
      </div>
    </div>
  );
}

function AssetList(props: { filters: Filters; header: React.ReactNode }): React.JSX.Element {
  const { filters } = props;
  const args = {
    ...(filters.workspace.trim() ? { workspace: filters.workspace.trim() } : {}),
    ...(numberOrUndefined(filters.assetId) ? { assetId: numberOrUndefined(filters.assetId) } : {}),
    ...(numberOrUndefined(filters.workRequest)
      ? { workRequest: numberOrUndefined(filters.workRequest) }
      : {}),
  };
  const list = useServerQuery((scope) => workspaceQueries.assets(scope, args));
  return (
    <section className="pane" aria-labelledby="assets-title">
      <div className="pane-header">
        <h2 id="assets-title">
          Assets {list.data ? <span className="count-badge">{list.data.length}</span> : null}
        </h2>
      </div>
      <div className="pane-body">
        {props.header}
        <div className="assets-table" tabIndex={0} role="region" aria-label="Asset list">
          {list.isPending ? (
            <LoadingState label="Loading assets…" />
          ) : list.isError ? (
            <FeatureError error={list.error} feature="Assets" onRetry={() => void list.refetch()} />
          ) : list.data.length === 0 ? (
            <EmptyState icon={KeyRound} title="No assets">
              No asset matches these filters.
            </EmptyState>
          ) : (
            <table className="table list-table" aria-label="Assets" data-testid="assets-table">
              <TableHead
                widths={[60, '24%', '14%', null, 110, 130]}
                columns={['Id', 'Category', 'Workspace', 'Data', 'Work request', 'Created']}
              />
              <tbody>
                {list.data.map((a) => (
                  <tr key={a.id}>
                    <td className="mono">{a.id}</td>
                    <td className="mono cell-ellipsis">{a.category}</td>
                    <td className="mono cell-ellipsis">{a.workspace}</td>
                    <td className="truncate-json" title={JSON.stringify(a.data)}>
                      {summary(a.data)}
                    </td>
                    <td className="mono muted">{a.work_request ?? '—'}</td>
                    <td>
                      <TimeAgo iso={typeof a.created_at === 'string' ? a.created_at : undefined} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>
    </section>
  );
}

/** The identifying part of an asset's data; secrets are not shown in the table. */
function summary(data: Record<string, unknown>): string {
  const parts = ['purpose', 'fingerprint', 'provider_type', 'auth_scheme', 'name', 'description']
    .filter((k) => typeof data[k] === 'string' && data[k] !== '')
    .map((k) => `${k}: ${String(data[k])}`);
  return parts.length ? parts.join(' · ') : JSON.stringify(data);
}

/** A pane that is a form: a titled header over a body; submitting calls `onSubmit`. */
function FormPane(props: {
  title: string;
  onSubmit: () => void;
  children: React.ReactNode;
}): React.JSX.Element {
  const id = useId();
  return (
    <form
      className="pane"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      <div className="pane-header">
        <h2 id={`${id}-title`}>{props.title}</h2>
      </div>
      <div className="pane-body">{props.children}</div>
    </form>
  );
}

/**
 * A labelled monospace field: a select of `options` when they are given, else a one-line
 * input (with an optional hint under it).
 */
function Field(props: {
  label: string;
  value: string;
  options?: readonly string[];
  hint?: string;
  inputMode?: 'numeric';
  invalid?: boolean;
  onChange: (value: string) => void;
}): React.JSX.Element {
  const id = useId();
  const onChange = (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>): void => {
    props.onChange(event.target.value);
  };
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.options ? (
        <select id={id} className="select mono" value={props.value} onChange={onChange}>
          {props.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          className="input mono"
          value={props.value}
          inputMode={props.inputMode}
          aria-invalid={props.invalid ? true : undefined}
          aria-describedby={props.hint ? `${id}-hint` : undefined}
          onChange={onChange}
        />
      )}
      {props.hint ? (
        <span className="field-hint" id={`${id}-hint`}>
          {props.hint}
        </span>
      ) : null}
    </div>
  );
}

function CreateAsset(props: { workspace: string }): React.JSX.Element {
  const [category, setCategory] = useState('debusine:signing-key');
  const [data, setData] = useState<Record<string, unknown>>(
    CATEGORIES['debusine:signing-key'] ?? {},
  );
  const [valid, setValid] = useState(true);
  const [workspace, setWorkspace] = useState(props.workspace);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [created, setCreated] = useState<number | null>(null);
  const dirty = !sameJson(data, CATEGORIES[category] ?? {});
  useUnsavedChanges(dirty, 'The new asset has not been created.');
  const create = useMutationOf(workspaceMutations.createAsset, {
    onSuccess: (asset, _args, invalidated) => {
      setProblem(null);
      setCreated(asset.id);
      setData(CATEGORIES[category] ?? {});
      return invalidated;
    },
    onError: (error) => {
      setCreated(null);
      setProblem(problemOf(error));
    },
  });
  return (
    <FormPane
      title="New asset"
      onSubmit={() => {
        if (valid) create.mutate({ category, data, workspace, work_request: null });
      }}
    >
      <ProblemBanner
        problem={problem}
        extra={otherFieldMessages(problem, ['category', 'workspace', 'data'])}
      />
      <div className="form-grid">
        <Field
          label="Category"
          value={category}
          options={Object.keys(CATEGORIES)}
          onChange={(value) => {
            setCategory(value);
            setData(CATEGORIES[value] ?? {});
          }}
        />
        <Field
          label="Workspace"
          value={workspace}
          invalid={fieldMessages(problem, 'workspace').length > 0}
          onChange={setWorkspace}
        />
      </div>
      <StructuredField
        label="Data"
        format="yaml"
        value={data}
        minLines={7}
        testId="asset-data-editor"
        errors={fieldMessages(problem, 'data')}
        check={(v) => (isPlainObject(v) ? null : 'Data must be a mapping.')}
        onChange={(v, ok) => {
          setValid(ok);
          if (ok && isPlainObject(v)) setData(v);
        }}
      />
      <div className="form-actions">
        {created !== null ? (
          <span className="saved-note" role="status">
            <CircleCheck size={14} aria-hidden="true" />
            Created asset #{created}
          </span>
        ) : null}
        <span className="spacer" />
        <button type="submit" className="button primary" disabled={!valid || create.isPending}>
          <Plus size={14} aria-hidden="true" />
          {create.isPending ? 'Creating…' : 'Create asset'}
        </button>
      </div>
    </FormPane>
  );
}

function PermissionCheck(props: { workspace: string }): React.JSX.Element {
  const [form, setForm] = useState({
    assetCategory: 'debusine:signing-key',
    assetSlug: '',
    permissionName: 'sign_with',
    artifactId: '',
    workRequestId: '',
    workspace: props.workspace,
  });
  const check = useMutationOf(workspaceMutations.checkAssetPermission);
  const complete =
    form.assetSlug.trim() !== '' &&
    numberOrUndefined(form.artifactId) !== undefined &&
    numberOrUndefined(form.workRequestId) !== undefined &&
    form.workspace.trim() !== '';
  const text = (key: keyof typeof form, label: string, hint?: string) => (
    <Field
      label={label}
      value={form[key]}
      hint={hint}
      onChange={(value) => {
        setForm({ ...form, [key]: value });
      }}
    />
  );
  return (
    <FormPane
      title="Permission check"
      onSubmit={() => {
        if (complete) {
          check.mutate({
            ...form,
            artifactId: Number(form.artifactId),
            workRequestId: Number(form.workRequestId),
          });
        }
      }}
    >
      <div className="form-grid">
        <Field
          label="Asset category"
          value={form.assetCategory}
          options={Object.keys(CATEGORIES)}
          onChange={(value) => {
            setForm({ ...form, assetCategory: value });
          }}
        />
        {text('assetSlug', 'Asset slug', 'Signing key: purpose:fingerprint')}
        <Field
          label="Permission"
          value={form.permissionName}
          options={['sign_with', 'sign_repository_with']}
          onChange={(value) => {
            setForm({ ...form, permissionName: value });
          }}
        />
        {text('workspace', 'Workspace')}
        {text('artifactId', 'Artifact id')}
        {text('workRequestId', 'Work request id')}
      </div>
      <div className="form-actions">
        <span className="muted">Servers answer only a running signing task&apos;s token.</span>
        <span className="spacer" />
        <button type="submit" className="button" disabled={!complete || check.isPending}>
          <ShieldQuestion size={14} aria-hidden="true" />
          Check
        </button>
      </div>
      <div role="status" aria-live="polite" data-testid="permission-answer">
        {check.isSuccess ? (
          <>
            <p
              className={`permission-answer ${check.data.has_permission ? 'tone-success' : 'tone-danger'}`}
            >
              {check.data.has_permission ? (
                <CircleCheck size={16} aria-hidden="true" />
              ) : (
                <CircleX size={16} aria-hidden="true" />
              )}
              {check.data.has_permission ? 'Permitted' : 'Not permitted'}
            </p>
            <dl className="props">
              <dt>User</dt>
              <dd className="mono">
                {check.data.username ?? '—'}{' '}
                {check.data.user_id !== null ? `(#${String(check.data.user_id)})` : ''}
              </dd>
              <dt>Resource</dt>
              <dd className="mono">
                {check.data.resource ? JSON.stringify(check.data.resource) : '—'}
              </dd>
            </dl>
          </>
        ) : null}
      </div>
      <ProblemBanner
        problem={check.isError ? problemOf(check.error) : null}
        heading="The server answered with an error"
      />
    </FormPane>
  );
}
