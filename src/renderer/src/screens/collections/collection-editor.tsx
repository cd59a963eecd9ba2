/**
 * Creates or edits a collection: a structured form (name, category, retention periods,
 * data) or the whole collection as YAML/JSON source, a diff against the server's version
 * before saving, and the server's refusals shown at the field they concern. A refused save
 * keeps the edit; leaving with unsaved changes asks first.
 */
import { useId, useMemo, useState } from 'react';
import { collectionMutations } from '@renderer/queries/collections';
import { useUnsavedChanges } from '@renderer/state/leave-guard';
import type { CollectionData } from '@shared/contract';
import { FieldErrors } from '@renderer/kit/editor-actions';
import { EditorPane } from '@renderer/kit/editor-pane';
import { useReviewedSave, useValidity } from '@renderer/kit/editor-state';
import { fieldMessages } from '@renderer/kit/errors/problem';
import { MappingField, StructuredField } from '@renderer/kit/structured-field';
import { isPlainObject, sameJson, toText } from '@renderer/kit/text';

/** Collection categories Debusine servers have, as suggestions; others may be typed. */
export const COLLECTION_CATEGORIES = [
  'debian:suite',
  'debian:archive',
  'debian:environments',
  'debian:package-build-logs',
  'debian:qa-results',
  'debusine:task-configuration',
  'debusine:task-history',
  'debusine:test',
];

export interface CollectionDraft {
  name: string;
  category: string;
  full_history_retention_period: number | null;
  metadata_only_retention_period: number | null;
  data: Record<string, unknown>;
}

const FIELDS = [
  'name',
  'category',
  'full_history_retention_period',
  'metadata_only_retention_period',
  'data',
] as const;

function draftOf(c: CollectionData | null): CollectionDraft {
  return {
    name: c?.name ?? '',
    category: c?.category ?? 'debian:suite',
    full_history_retention_period: c?.full_history_retention_period ?? null,
    metadata_only_retention_period: c?.metadata_only_retention_period ?? null,
    data: c?.data ?? {},
  };
}

/** The source view's value must be a collection: these keys, these types. */
function checkDraft(value: unknown): string | null {
  if (!isPlainObject(value)) return 'The collection must be a mapping of its fields.';
  const extra = Object.keys(value).filter((k) => !(FIELDS as readonly string[]).includes(k));
  if (extra.length) return `Unknown fields: ${extra.join(', ')}`;
  if (typeof value.name !== 'string') return 'name must be a string.';
  if (typeof value.category !== 'string') return 'category must be a string.';
  for (const k of ['full_history_retention_period', 'metadata_only_retention_period'] as const) {
    const v = value[k];
    if (v !== null && v !== undefined && !(Number.isInteger(v) && (v as number) >= 0)) {
      return `${k} must be a whole number of days, or null.`;
    }
  }
  if (value.data !== undefined && !isPlainObject(value.data)) return 'data must be a mapping.';
  return null;
}

function normalise(value: Record<string, unknown>): CollectionDraft {
  return {
    name: value.name as string,
    category: value.category as string,
    full_history_retention_period: (value.full_history_retention_period as number | null) ?? null,
    metadata_only_retention_period: (value.metadata_only_retention_period as number | null) ?? null,
    data: (value.data as Record<string, unknown> | undefined) ?? {},
  };
}

type View = 'form' | 'yaml' | 'json';

export function CollectionEditor(props: {
  workspace: string;
  /** null: a new collection. */
  original: CollectionData | null;
  /** After a save (with the saved collection) or a cancel (null). */
  onDone: (saved: CollectionData | null) => void;
}): React.JSX.Element {
  const { workspace, original } = props;
  const base = useMemo(() => draftOf(original), [original]);
  const [draft, setDraft] = useState<CollectionDraft>(base);
  const [view, setView] = useState<View>('form');
  const { invalid, setValidity } = useValidity();
  const dirty = !sameJson(draft, base);
  useUnsavedChanges(
    dirty,
    original
      ? `Unsaved changes to collection ${original.name}@${original.category}.`
      : 'The new collection has not been saved.',
  );
  const id = useId();

  const flow = useReviewedSave({
    mutation: collectionMutations.save,
    variables: (d: CollectionDraft) => {
      if (original === null) return { workspace, id: null, collection: d };
      // The category cannot change. Both retention periods are always sent: the bridge's
      // update schema defaults a missing one to null, which would clear it on the server.
      const changes: Partial<Omit<CollectionDraft, 'category'>> = {
        full_history_retention_period: d.full_history_retention_period,
        metadata_only_retention_period: d.metadata_only_retention_period,
      };
      if (d.name !== base.name) changes.name = d.name;
      if (!sameJson(d.data, base.data)) changes.data = d.data;
      return { workspace, id: original.id, collection: changes };
    },
    onDone: props.onDone,
  });

  const update = <K extends keyof CollectionDraft>(key: K, value: CollectionDraft[K]): void => {
    setDraft((d) => ({ ...d, [key]: value }));
  };
  const errs = (field: string): string[] => fieldMessages(flow.problem, field);
  const canSave = invalid.size === 0 && draft.name.trim() !== '' && draft.category.trim() !== '';
  const title = original ? `Edit ${original.name}@${original.category}` : 'New collection';

  /** A retention period's field; `short` names its element id and its validity. */
  const retentionField = (
    key: 'full_history_retention_period' | 'metadata_only_retention_period',
    short: string,
    label: string,
  ) => (
    <RetentionField
      id={`${id}-${short}`}
      label={label}
      value={draft[key]}
      errors={errs(key)}
      onChange={(v, ok) => {
        update(key, v);
        setValidity(short, ok);
      }}
    />
  );

  return (
    <EditorPane
      title={title}
      header={
        <div className="segmented" role="group" aria-label="Edit as">
          {(['form', 'yaml', 'json'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              disabled={view !== v && invalid.size > 0}
              title={
                view !== v && invalid.size > 0 ? 'Fix the syntax errors first' : `Edit as ${v}`
              }
              onClick={() => {
                setView(v);
              }}
            >
              {v === 'form' ? 'Form' : v.toUpperCase()}
            </button>
          ))}
        </div>
      }
      existing={original !== null}
      flow={flow}
      draft={draft}
      dirty={dirty}
      canSave={canSave}
      fields={view === 'form' ? FIELDS : []}
      review={{
        title: original ? `Changes to ${original.name}@${original.category}` : 'New collection',
        before: original ? toText(base, 'yaml') : '',
        after: toText(draft, 'yaml'),
        confirmLabel: original ? 'Save to server' : 'Create collection',
      }}
      onClose={() => {
        props.onDone(null);
      }}
    >
      {view === 'form' ? (
        <div className="form-grid">
          <TextField
            id={`${id}-name`}
            label="Name"
            value={draft.name}
            errors={errs('name')}
            hint="Singleton categories are named _"
            onChange={(v) => {
              update('name', v);
            }}
            mono
          />
          <div className="field">
            <label htmlFor={`${id}-category`}>Category</label>
            <input
              id={`${id}-category`}
              className="input mono"
              list={`${id}-categories`}
              value={draft.category}
              readOnly={original !== null}
              aria-invalid={errs('category').length > 0 || undefined}
              aria-describedby={`${id}-category-hint`}
              onChange={(event) => {
                update('category', event.target.value);
              }}
            />
            <datalist id={`${id}-categories`}>
              {COLLECTION_CATEGORIES.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
            <span className="field-hint" id={`${id}-category-hint`}>
              {original ? 'A collection keeps its category.' : 'For example debian:suite'}
            </span>
            <FieldErrors messages={errs('category')} />
          </div>
          {retentionField('full_history_retention_period', 'full', 'Keep full history for')}
          {retentionField('metadata_only_retention_period', 'meta', 'Keep metadata for')}
          <div className="wide">
            <MappingField
              label="Data"
              format="yaml"
              value={draft.data}
              errors={errs('data')}
              hint="Free-form; for a suite: components, architectures, signing_keys…"
              minLines={8}
              testId="collection-data-editor"
              notMapping="Data must be a mapping."
              onChange={(v) => {
                update('data', v);
              }}
              onValidity={(ok) => {
                setValidity('data', ok);
              }}
            />
          </div>
        </div>
      ) : (
        <StructuredField
          label="Collection"
          format={view}
          value={draft}
          minLines={14}
          testId="collection-source-editor"
          check={checkDraft}
          onChange={(v, ok) => {
            if (ok && isPlainObject(v)) setDraft(normalise(v));
            setValidity('source', ok);
          }}
        />
      )}
    </EditorPane>
  );
}

function TextField(props: {
  id: string;
  label: string;
  value: string;
  errors: string[];
  hint?: string;
  mono?: boolean;
  onChange: (value: string) => void;
}): React.JSX.Element {
  const describedBy = [
    props.hint ? `${props.id}-hint` : '',
    props.errors.length ? `${props.id}-error` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        className={`input${props.mono ? ' mono' : ''}`}
        value={props.value}
        required
        aria-invalid={props.errors.length > 0 || undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => {
          props.onChange(event.target.value);
        }}
      />
      {props.hint ? (
        <span className="field-hint" id={`${props.id}-hint`}>
          {props.hint}
        </span>
      ) : null}
      {props.errors.length ? (
        <span className="field-error" id={`${props.id}-error`}>
          {props.errors.join(' · ')}
        </span>
      ) : null}
    </div>
  );
}

/** Days, or empty for "unlimited" (null). */
function RetentionField(props: {
  id: string;
  label: string;
  value: number | null;
  errors: string[];
  onChange: (value: number | null, valid: boolean) => void;
}): React.JSX.Element {
  const [text, setText] = useState(props.value === null ? '' : String(props.value));
  const local =
    text.trim() === '' || /^\d+$/.test(text.trim()) ? null : 'A whole number of days, or empty.';
  const errors = [...(local ? [local] : []), ...props.errors];
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <div className="input-suffix">
        <input
          id={props.id}
          className="input mono"
          inputMode="numeric"
          value={text}
          placeholder="unlimited"
          aria-invalid={errors.length > 0 || undefined}
          aria-describedby={`${props.id}-hint${errors.length ? ` ${props.id}-error` : ''}`}
          onChange={(event) => {
            const next = event.target.value;
            setText(next);
            const t = next.trim();
            if (t === '') props.onChange(null, true);
            else if (/^\d+$/.test(t)) props.onChange(Number(t), true);
            else props.onChange(props.value, false);
          }}
        />
        <span className="muted">days</span>
      </div>
      <span className="field-hint" id={`${props.id}-hint`}>
        Empty: unlimited
      </span>
      {errors.length ? (
        <span className="field-error" id={`${props.id}-error`}>
          {errors.join(' · ')}
        </span>
      ) : null}
    </div>
  );
}
