/**
 * Creates or edits a workflow template in the form its server speaks: static and runtime
 * parameters, extra groups and `restricted` on 0.13+ servers; `task_data` on 0.11/0.12.
 * A diff against the server's version comes before the save; a refused save keeps the edit.
 */
import { useId, useMemo, useState } from 'react';
import { templateMutations, type NewTemplate } from '@renderer/queries/templates';
import { useUnsavedChanges } from '@renderer/state/leave-guard';
import type { WorkflowTemplateData } from '@shared/contract';
import { FieldErrors } from '@renderer/kit/editor-actions';
import { EditorPane } from '@renderer/kit/editor-pane';
import { useReviewedSave, useValidity } from '@renderer/kit/editor-state';
import { fieldMessages } from '@renderer/kit/errors/problem';
import { MappingField, StructuredField } from '@renderer/kit/structured-field';
import { sameJson, toText } from '@renderer/kit/text';
import {
  body,
  checkRuntimeParameters,
  draftOf,
  WORKFLOW_NAMES,
  type RuntimeParameters,
  type TemplateDraft,
} from './model';

const FIELDS = [
  'name',
  'task_name',
  'priority',
  'static_parameters',
  'runtime_parameters',
  'extra_groups',
  'restricted',
  'task_data',
];

export function TemplateEditor(props: {
  workspace: string;
  original: WorkflowTemplateData | null;
  form: 'current' | 'earlier';
  onDone: (saved: WorkflowTemplateData | null) => void;
}): React.JSX.Element {
  const { workspace, original, form } = props;
  const base = useMemo(() => draftOf(original, form), [original, form]);
  const [draft, setDraft] = useState<TemplateDraft>(base);
  const { invalid, setValidity } = useValidity();
  const [priorityText, setPriorityText] = useState(String(base.priority));
  const [groupsText, setGroupsText] = useState(
    base.form === 'current' ? base.extra_groups.join('\n') : '',
  );
  const id = useId();
  const dirty = !sameJson(body(draft), body(base));
  useUnsavedChanges(
    dirty,
    original ? `Unsaved changes to template ${original.name}.` : 'The new template is not saved.',
  );

  const flow = useReviewedSave({
    mutation: templateMutations.save,
    variables: (d: TemplateDraft) => {
      const fields = body(d);
      if (original === null) return { workspace, id: null, template: fields as NewTemplate };
      // Every field but the task name (which cannot change) is sent: the bridge's update
      // schema defaults missing ones (priority 0, empty task data), which would clear them.
      const changes = Object.fromEntries(Object.entries(fields).filter(([k]) => k !== 'task_name'));
      return { workspace, id: original.id, template: changes };
    },
    onDone: props.onDone,
  });

  const patch = (changes: Partial<TemplateDraft>): void => {
    setDraft((d) => ({ ...d, ...changes }) as TemplateDraft);
  };
  const errs = (f: string): string[] => fieldMessages(flow.problem, f);
  const canSave = invalid.size === 0 && draft.name.trim() !== '' && draft.task_name.trim() !== '';
  const title = original ? `Edit ${original.name}` : 'New workflow template';

  const input = (
    key: 'name' | 'task_name',
    label: string,
    extra: { readOnly?: boolean; list?: string; hint?: string } = {},
  ) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        className="input mono"
        value={draft[key]}
        required
        readOnly={extra.readOnly}
        list={extra.list}
        aria-invalid={errs(key).length > 0 || undefined}
        aria-describedby={`${id}-${key}-hint ${id}-${key}-error`}
        onChange={(event) => {
          patch({ [key]: event.target.value });
        }}
      />
      <span className="field-hint" id={`${id}-${key}-hint`}>
        {extra.hint ?? ''}
      </span>
      {errs(key).length ? (
        <span className="field-error" id={`${id}-${key}-error`}>
          {errs(key).join(' · ')}
        </span>
      ) : null}
    </div>
  );

  /** A mapping of task data: the static parameters (0.13+ form) or the task data (0.11/0.12). */
  const taskDataField = (
    key: 'static_parameters' | 'task_data',
    value: Record<string, unknown>,
    field: { label: string; minLines: number; testId: string; hint: string },
  ) => (
    <MappingField
      {...field}
      format="yaml"
      value={value}
      errors={errs(key)}
      notMapping="A mapping of task data."
      onValidity={(ok) => {
        setValidity(key, ok);
      }}
      onChange={(v) => {
        patch({ [key]: v });
      }}
    />
  );

  return (
    <EditorPane
      title={title}
      header={
        <span className="tag">
          {form === 'current' ? 'Debusine 0.13+ form' : 'Debusine 0.11/0.12 form'}
        </span>
      }
      existing={original !== null}
      flow={flow}
      draft={draft}
      dirty={dirty}
      canSave={canSave}
      fields={FIELDS}
      review={{
        title: original ? `Changes to template ${original.name}` : 'New workflow template',
        before: original ? toText(body(base), 'yaml') : '',
        after: toText(body(draft), 'yaml'),
        confirmLabel: original ? 'Save to server' : 'Create template',
      }}
      onClose={() => {
        props.onDone(null);
      }}
    >
      <div className="form-grid">
        {input('name', 'Name', { hint: 'Unique in the workspace' })}
        {input('task_name', 'Workflow', {
          readOnly: original !== null,
          list: `${id}-workflows`,
          hint: original ? 'A template keeps its workflow.' : 'The workflow task it starts',
        })}
        <datalist id={`${id}-workflows`}>
          {WORKFLOW_NAMES.map((w) => (
            <option key={w} value={w} />
          ))}
        </datalist>
        <div className="field">
          <label htmlFor={`${id}-priority`}>Priority</label>
          <input
            id={`${id}-priority`}
            className="input mono"
            inputMode="numeric"
            value={priorityText}
            aria-invalid={
              !/^-?\d+$/.test(priorityText.trim()) || errs('priority').length > 0 || undefined
            }
            aria-describedby={`${id}-priority-hint`}
            onChange={(event) => {
              const t = event.target.value;
              setPriorityText(t);
              const ok = /^-?\d+$/.test(t.trim());
              setValidity('priority', ok);
              if (ok) patch({ priority: Number(t) });
            }}
          />
          <span className="field-hint" id={`${id}-priority-hint`}>
            Above 0 needs the right to manage priorities
          </span>
          <FieldErrors
            messages={[
              ...(/^-?\d+$/.test(priorityText.trim()) ? [] : ['A whole number.']),
              ...errs('priority'),
            ]}
          />
        </div>
        {draft.form === 'current' ? (
          <div className="field">
            <span className="field-label">Who may start it</span>
            <label className="check">
              <input
                type="checkbox"
                checked={draft.restricted}
                onChange={(event) => {
                  patch({ restricted: event.target.checked });
                }}
              />
              Restricted: only workspace owners
            </label>
            <FieldErrors messages={errs('restricted')} />
          </div>
        ) : (
          <div />
        )}
      </div>
      {draft.form === 'current' ? (
        <>
          {taskDataField('static_parameters', draft.static_parameters, {
            label: 'Static parameters',
            minLines: 7,
            testId: 'template-static-editor',
            hint: 'Task data fixed by the template',
          })}
          <StructuredField
            label="Runtime parameters"
            format="yaml"
            value={draft.runtime_parameters}
            minLines={4}
            testId="template-runtime-editor"
            hint='What a user may set when starting: "any", or key: [allowed values] or key: any'
            errors={errs('runtime_parameters')}
            check={checkRuntimeParameters}
            onChange={(v, ok) => {
              setValidity('runtime', ok);
              if (ok) patch({ runtime_parameters: v as RuntimeParameters });
            }}
          />
          <div className="field">
            <label htmlFor={`${id}-groups`}>Extra groups</label>
            <textarea
              id={`${id}-groups`}
              className="textarea mono"
              rows={2}
              value={groupsText}
              aria-describedby={`${id}-groups-hint`}
              aria-invalid={errs('extra_groups').length > 0 || undefined}
              onChange={(event) => {
                setGroupsText(event.target.value);
                patch({
                  extra_groups: event.target.value
                    .split(/[\n,]/)
                    .map((g) => g.trim())
                    .filter(Boolean),
                });
              }}
            />
            <span className="field-hint" id={`${id}-groups-hint`}>
              One per line: scope/name or scope/workspace/name, granted while the workflow runs
            </span>
            <FieldErrors messages={errs('extra_groups')} />
          </div>
        </>
      ) : (
        taskDataField('task_data', draft.task_data, {
          label: 'Task data',
          minLines: 8,
          testId: 'template-task-data-editor',
          hint: "This server merges the user's task data into it when a workflow starts",
        })
      )}
    </EditorPane>
  );
}
