/**
 * The "start workflow" form: a template picker, then one input per runtime parameter — a
 * select for enumerated values, a text, number or JSON input for "any" — or, where the
 * template allows any task data (or the server is 0.11/0.12), the task data as YAML.
 */
import { CircleCheck, Play, TriangleAlert } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import type { StartWorkflowFormProps } from './start-workflow-form';
import { LoadingState } from '@renderer/components/loading-state';
import { useMutationOf, useServerQuery } from '@renderer/queries/hooks';
import { templateMutations, templateQueries } from '@renderer/queries/templates';
import { useUnsavedChanges } from '@renderer/state/leave-guard';
import type { WorkflowTemplateData } from '@shared/contract';
import { useValidity } from './editor-state';
import { isUnsupported, problemOf } from '@renderer/kit/errors/problem';
import { ProblemBanner } from '@renderer/kit/errors/problem-banner';
import { NamePicker } from './name-picker';
import { StructuredField } from './structured-field';
import { isPlainObject, sameJson } from './text';
import { fitInitialTaskData, isCurrentForm } from './workflow-template';
import './kit.css';
import { useOpen } from './navigation';

export function StartWorkflow(props: StartWorkflowFormProps): React.JSX.Element {
  const { workspace } = props;
  const id = useId();
  const list = useServerQuery((scope) => templateQueries.list(scope, workspace));
  const [picked, setPicked] = useState<string | null>(props.initialTemplate ?? null);
  if (list.isPending) return <LoadingState label="Loading templates…" />;
  const earlier = list.isError && isUnsupported(list.error);
  const templates = list.data ?? [];
  const name = picked ?? templates[0]?.name ?? '';
  const template = templates.find((t) => t.name === name) ?? null;
  return (
    <div className="start-form" data-testid="start-workflow-form">
      <div className="field">
        <label htmlFor={`${id}-template`}>Template</label>
        <NamePicker
          id={`${id}-template`}
          value={name}
          onChange={setPicked}
          options={
            earlier || list.isError
              ? null
              : templates.length === 0
                ? [{ value: '', label: `No templates in ${workspace}` }]
                : templates.map((t) => ({ value: t.name, label: `${t.name} (${t.task_name})` }))
          }
          typed={{ placeholder: 'template name', 'aria-describedby': `${id}-template-hint` }}
        />
        {earlier || list.isError ? (
          <span className="field-hint" id={`${id}-template-hint`}>
            This server does not list its templates: type the template&apos;s name.
          </span>
        ) : null}
      </div>
      {name.trim() === '' ? null : (
        <Parameters
          key={name}
          workspace={workspace}
          templateName={name}
          template={template}
          initial={props.initialTaskData ?? {}}
          {...(props.onStarted ? { onStarted: props.onStarted } : {})}
        />
      )}
    </div>
  );
}

type RuntimeMap = Record<string, 'any' | unknown[]>;

function Parameters(props: {
  workspace: string;
  templateName: string;
  /** null: unknown (earlier servers); the task data is then free YAML. */
  template: WorkflowTemplateData | null;
  initial: Record<string, unknown>;
  onStarted?: (id: number) => void;
}): React.JSX.Element {
  const { template } = props;
  // The uploaded artifact goes where this template's workflow takes its source.
  const initial = fitInitialTaskData(template, props.initial);
  const { openWorkRequest } = useOpen();
  const rp = template && isCurrentForm(template) ? (template.runtime_parameters ?? {}) : 'any';
  const fields: RuntimeMap | null = rp === 'any' ? null : rp;
  const statics = template?.static_parameters ?? template?.task_data ?? {};
  const [values, setValues] = useState<Record<string, unknown>>(() =>
    fields
      ? Object.fromEntries(
          Object.keys(fields)
            .filter((k) => k in initial)
            .map((k) => [k, initial[k]]),
        )
      : initial,
  );
  const { invalid, setValidity } = useValidity();
  const leftOut = fields ? Object.keys(initial).filter((k) => !(k in fields)) : [];
  const start = useMutationOf(templateMutations.start, {
    onSuccess: (wr) => {
      props.onStarted?.(wr.id);
    },
  });
  const [seed] = useState(values);
  useUnsavedChanges(
    !start.isSuccess && !sameJson(values, seed),
    'The workflow parameters you entered were not used yet.',
  );
  const set = (key: string, value: unknown): void => {
    setValues((v) => {
      const next = Object.entries(v).filter(([k]) => k !== key);
      return Object.fromEntries(value === undefined ? next : [...next, [key, value]]);
    });
  };
  const problem = start.isError ? problemOf(start.error) : null;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (invalid.size === 0) {
          start.mutate({
            template_name: props.templateName,
            workspace: props.workspace,
            task_data: values,
          });
        }
      }}
    >
      {template &&
      isCurrentForm(template) &&
      (template as { restricted?: unknown }).restricted === true ? (
        <p className="field-hint">Restricted: only the workspace&apos;s owners may start it.</p>
      ) : null}
      {fields === null ? (
        <StructuredField
          label="Task data"
          format="yaml"
          value={values}
          minLines={6}
          testId="start-task-data-editor"
          hint={
            template && isCurrentForm(template)
              ? 'This template lets you set any task data.'
              : 'Merged into the template’s task data by the server.'
          }
          errors={problem ? Object.values(problem.fields).flat() : []}
          check={(v) => (isPlainObject(v) ? null : 'Task data is a mapping.')}
          onChange={(v, ok) => {
            setValidity('task_data', ok);
            if (ok && isPlainObject(v)) setValues(v);
          }}
        />
      ) : Object.keys(fields).length === 0 ? (
        <p className="muted">This template takes no runtime parameters: it starts as it is.</p>
      ) : (
        <div className="form-grid">
          {Object.entries(fields).map(([key, allowed]) => (
            <ParameterInput
              key={key}
              name={key}
              allowed={allowed}
              value={values[key]}
              fallback={statics[key]}
              errors={problem?.fields[key] ?? []}
              onChange={(v, ok) => {
                setValidity(key, ok);
                if (ok) set(key, v);
              }}
            />
          ))}
        </div>
      )}
      {leftOut.length ? (
        <p className="field-hint">
          <TriangleAlert size={12} aria-hidden="true" className="tone-attention" /> Left out (the
          template does not let users set them): <span className="mono">{leftOut.join(', ')}</span>
        </p>
      ) : null}
      <ProblemBanner problem={problem} heading="The server did not start it" keep={false} />
      <div className="form-actions">
        {start.isSuccess ? (
          <span className="saved-note" role="status">
            <CircleCheck size={14} aria-hidden="true" />
            Started workflow{' '}
            <button
              type="button"
              className="link-button mono"
              onClick={() => {
                openWorkRequest(start.data.id);
              }}
            >
              #{start.data.id}
            </button>
          </span>
        ) : null}
        <span className="spacer" />
        <button
          type="submit"
          className="button primary"
          disabled={invalid.size > 0 || start.isPending}
        >
          <Play size={14} aria-hidden="true" />
          {start.isPending ? 'Starting…' : 'Start workflow'}
        </button>
      </div>
    </form>
  );
}

type Kind = 'text' | 'number' | 'json';

function kindOf(sample: unknown): Kind {
  if (typeof sample === 'number') return 'number';
  if (sample === undefined || typeof sample === 'string') return 'text';
  return 'json';
}

/**
 * What a typed text means for a parameter of this kind: its value, whether it may be sent,
 * and what is wrong with it. An empty text leaves the parameter out, whatever the kind.
 */
function readText(
  kind: Kind,
  text: string,
): { value: unknown; valid: boolean; problem: string | null } {
  if (text.trim() === '') return { value: undefined, valid: true, problem: null };
  if (kind === 'number') {
    const ok = /^-?\d+(\.\d+)?$/.test(text.trim());
    return { value: ok ? Number(text) : undefined, valid: ok, problem: ok ? null : 'A number.' };
  }
  if (kind === 'text') return { value: text, valid: true, problem: null };
  try {
    return { value: JSON.parse(text) as unknown, valid: true, problem: null };
  } catch {
    return { value: undefined, valid: false, problem: 'Not valid JSON.' };
  }
}

function ParameterInput(props: {
  name: string;
  allowed: 'any' | unknown[];
  value: unknown;
  /** The template's static value, which applies when this one is not set. */
  fallback: unknown;
  errors: string[];
  onChange: (value: unknown, valid: boolean) => void;
}): React.JSX.Element {
  const id = useId();
  const { name, allowed, value, fallback } = props;
  const kind = kindOf(value ?? fallback);
  const initialText = useMemo(
    () =>
      value === undefined
        ? ''
        : kind === 'json'
          ? JSON.stringify(value)
          : (value as string | number),
    // Only the first value seeds the text; later ones come from the input itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const [text, setText] = useState(initialText);
  const [local, setLocal] = useState<string | null>(null);
  // What happens to the parameter as the field is now.
  const defaultText = fallback === undefined ? null : JSON.stringify(fallback);
  const hint =
    value === undefined
      ? defaultText === null
        ? 'Not set: left out'
        : `Template default: ${defaultText}`
      : defaultText === null
        ? 'Sent with the workflow'
        : `Sent in place of the template default, ${defaultText}`;
  const errors = [...(local ? [local] : []), ...props.errors];
  // What the select, the text area and the input all carry: the label's target, the hint and
  // errors that describe them.
  const field = {
    id,
    'aria-describedby': `${id}-hint${errors.length ? ` ${id}-error` : ''}`,
    'aria-invalid': errors.length > 0 || undefined,
  };
  const onText = (t: string): void => {
    setText(t);
    const read = readText(kind, t);
    setLocal(read.problem);
    props.onChange(read.value, read.valid);
  };
  return (
    <div className="field">
      <label htmlFor={id} className="mono">
        {name}
      </label>
      {Array.isArray(allowed) ? (
        <select
          {...field}
          className="select mono"
          value={value === undefined ? '' : JSON.stringify(value)}
          onChange={(event) => {
            const v = event.target.value;
            props.onChange(v === '' ? undefined : (JSON.parse(v) as unknown), true);
          }}
        >
          <option value="">(not set)</option>
          {allowed.map((a) => (
            <option key={JSON.stringify(a)} value={JSON.stringify(a)}>
              {typeof a === 'string' ? a : JSON.stringify(a)}
            </option>
          ))}
        </select>
      ) : kind === 'json' ? (
        <textarea
          {...field}
          className="textarea mono"
          rows={2}
          value={text}
          onChange={(event) => {
            onText(event.target.value);
          }}
        />
      ) : (
        <input
          {...field}
          className="input mono"
          inputMode={kind === 'number' ? 'numeric' : undefined}
          value={text}
          onChange={(event) => {
            onText(event.target.value);
          }}
        />
      )}
      <span className="field-hint cell-ellipsis" id={`${id}-hint`} title={hint}>
        {Array.isArray(allowed) ? `One of ${String(allowed.length)} values. ` : ''}
        {hint}
      </span>
      {errors.length ? (
        <span className="field-error" id={`${id}-error`}>
          {errors.join(' · ')}
        </span>
      ) : null}
    </div>
  );
}
