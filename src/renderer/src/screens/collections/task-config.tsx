/**
 * Task configuration collections: fetch one, edit its items, dry-run the push (added /
 * updated / removed / unchanged, and the diff), then push. A refused push keeps the edit.
 */
import {
  CircleCheck,
  CircleDot,
  CircleMinus,
  CirclePlus,
  FlaskConical,
  Plus,
  SlidersHorizontal,
  Trash2,
  Upload,
} from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { DiffView } from '@renderer/components/diff-view';
import { EmptyState } from '@renderer/components/empty-state';
import {
  collectionMutations,
  collectionQueries,
  useCollections,
} from '@renderer/queries/collections';
import { useMutationOf, useServerQuery } from '@renderer/queries/hooks';
import { useUnsavedChanges } from '@renderer/state/leave-guard';
import { DirtyNote } from '@renderer/kit/editor-actions';
import type { TaskConfigurationUpdateResults } from '@shared/contract';
import { problemOf, type Problem } from '@renderer/kit/errors/problem';
import { ListPane, ReloadButton } from '@renderer/kit/list-pane';
import { featureQuery } from '@renderer/kit/errors/feature-error';
import { ProblemBanner } from '@renderer/kit/errors/problem-banner';
import { MappingField } from '@renderer/kit/structured-field';
import { NamePicker } from '@renderer/kit/name-picker';
import { sameJson, toText } from '@renderer/kit/text';
import { duplicateNames, itemName, newItem, type TaskConfigItem } from './task-config-model';
import { TableHead } from '@renderer/components/table-head';

const CATEGORY = 'debusine:task-configuration';

export function TaskConfigTab(props: { workspace: string }): React.JSX.Element {
  const collections = useCollections(props.workspace);
  const names = (collections.data ?? []).filter((c) => c.category === CATEGORY).map((c) => c.name);
  const [name, setName] = useState<string | null>(null);
  const chosen = name ?? names[0] ?? 'default';
  const id = useId();
  return (
    <div className="stack">
      <div className="toolbar">
        <label htmlFor={`${id}-collection`}>Task configuration collection</label>
        <NamePicker
          id={`${id}-collection`}
          value={chosen}
          onChange={setName}
          options={names.length > 0 ? names.map((n) => ({ value: n, label: n })) : null}
        />
        <span className="muted">
          in <span className="mono">{props.workspace}</span>
        </span>
      </div>
      {chosen.trim() === '' ? null : (
        <TaskConfigEditor workspace={props.workspace} name={chosen} key={chosen} />
      )}
    </div>
  );
}

function TaskConfigEditor(props: { workspace: string; name: string }): React.JSX.Element {
  const { workspace, name } = props;
  const fetched = useServerQuery((scope) => collectionQueries.taskConfig(scope, workspace, name));
  const serverItems = useMemo(
    () => (fetched.data?.items ?? []) as TaskConfigItem[],
    [fetched.data],
  );
  // null: not edited yet (the server's items are shown).
  const [edited, setEdited] = useState<TaskConfigItem[] | null>(null);
  const items = edited ?? serverItems;
  const [selected, setSelected] = useState(0);
  const [invalid, setInvalid] = useState(false);
  const [dryRun, setDryRun] = useState<{
    items: TaskConfigItem[];
    result: TaskConfigurationUpdateResults;
  } | null>(null);
  const [pushed, setPushed] = useState<TaskConfigurationUpdateResults | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const dirty = edited !== null && !sameJson(edited, serverItems);
  useUnsavedChanges(dirty, `Unsaved changes to task configuration ${name}.`);
  const dups = duplicateNames(items);

  const push = useMutationOf(collectionMutations.pushTaskConfig, {
    onSuccess: async (result, args, invalidated) => {
      setProblem(null);
      if (args.dryRun) {
        setDryRun({ items: args.items, result });
        return;
      }
      setPushed(result);
      setDryRun(null);
      setEdited(null);
      await invalidated;
    },
    onError: (error) => {
      setProblem(problemOf(error));
    },
  });

  const got = featureQuery(fetched, {
    loading: 'Fetching the task configuration…',
    feature: 'Task configuration',
    since: '0.12',
  });
  if ('view' in got) return got.view;

  const change = (next: TaskConfigItem[]): void => {
    setEdited(next);
    setPushed(null);
  };
  const current = items[Math.min(selected, items.length - 1)];
  const dryRunFresh = dryRun !== null && sameJson(dryRun.items, items);

  return (
    <>
      <ProblemBanner problem={problem} heading="The server refused the push" />
      <div className="split">
        <ListPane
          titleId="tc-items-title"
          title="Items"
          count={items.length}
          actions={
            <>
              <ReloadButton
                label="Fetch again from the server"
                title="Fetch again (drops unsaved changes)"
                disabled={dirty}
                onClick={() => void fetched.refetch()}
              />
              <button
                type="button"
                className="button small"
                onClick={() => {
                  change([...items, newItem(items)]);
                  setSelected(items.length);
                }}
              >
                <Plus size={14} aria-hidden="true" />
                Add item
              </button>
            </>
          }
        >
          {items.length === 0 ? (
            <EmptyState icon={SlidersHorizontal} title="No items">
              This collection configures no task yet. Add an item.
            </EmptyState>
          ) : (
            <table className="table list-table" aria-label="Task configuration items">
              <TableHead
                widths={[null, 40]}
                columns={['Name', { label: 'Remove', hide: 'visually' }]}
              />
              <tbody>
                {items.map((item, index) => {
                  const itemLabel = itemName(item);
                  return (
                    <tr key={index} aria-selected={index === selected}>
                      <td>
                        <button
                          type="button"
                          className="row-button mono"
                          title={itemLabel}
                          aria-current={index === selected ? 'true' : undefined}
                          onClick={() => {
                            setSelected(index);
                          }}
                        >
                          {itemLabel}
                        </button>
                        {typeof item.comment === 'string' && item.comment !== '' ? (
                          <div className="muted cell-ellipsis">{item.comment}</div>
                        ) : null}
                      </td>
                      <td>
                        <button
                          type="button"
                          className="button small icon-only ghost"
                          aria-label={`Remove ${itemLabel}`}
                          title="Remove"
                          onClick={() => {
                            change(items.filter((_, i) => i !== index));
                            setSelected(Math.max(0, index - 1));
                          }}
                        >
                          <Trash2 size={14} aria-hidden="true" />
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </ListPane>
        <section className="pane" aria-label="Item">
          <div className="pane-header">
            <h2 className="mono">{current ? itemName(current) : 'No item'}</h2>
          </div>
          <div className="pane-body">
            {current ? (
              <MappingField
                key={Math.min(selected, items.length - 1)}
                label="Item"
                format="yaml"
                value={current}
                minLines={12}
                testId="task-config-item-editor"
                hint="task_type and task_name (or template), subject, context, default_values, override_values, lock_values, comment…"
                errors={dups.length ? [`Duplicate item names: ${dups.join(', ')}`] : []}
                notMapping="An item is a mapping of its fields."
                onValidity={(ok) => {
                  setInvalid(!ok);
                }}
                onChange={(v) => {
                  const index = Math.min(selected, items.length - 1);
                  change(items.map((item, i) => (i === index ? v : item)));
                }}
              />
            ) : (
              <p className="muted">Add an item to edit it here.</p>
            )}
          </div>
        </section>
      </div>
      <section className="pane" aria-labelledby="tc-push-title">
        <div className="pane-header">
          <h2 id="tc-push-title">Push to the server</h2>
          <DirtyNote dirty={dirty} />
          <button
            type="button"
            className="button small"
            disabled={invalid || dups.length > 0 || push.isPending}
            onClick={() => {
              push.mutate({ workspace, name, items, dryRun: true });
            }}
          >
            <FlaskConical size={14} aria-hidden="true" />
            Dry run
          </button>
          <button
            type="button"
            className="button small primary"
            disabled={!dryRunFresh || invalid || push.isPending}
            title={dryRunFresh ? 'Replace the collection with these items' : 'Dry run first'}
            onClick={() => {
              push.mutate({ workspace, name, items, dryRun: false });
            }}
          >
            <Upload size={14} aria-hidden="true" />
            Push
          </button>
        </div>
        <div className="pane-body">
          {pushed ? (
            <>
              <p className="saved-note" role="status">
                <CircleCheck size={14} aria-hidden="true" />
                Pushed: the server replaced the items of {name}.
              </p>
              <Counts result={pushed} label="Pushed" />
            </>
          ) : dryRunFresh ? (
            <>
              <p className="muted" role="status">
                Dry run: this is what a push would change. Nothing was changed yet.
              </p>
              <Counts result={dryRun.result} label="Dry run" />
              <DiffView
                before={toText(serverItems, 'yaml')}
                after={toText(items, 'yaml')}
                label={`Changes to the items of ${name}`}
              />
            </>
          ) : (
            <p className="muted">
              {dirty
                ? 'Run a dry run to see what the push would add, update and remove.'
                : 'Edit the items, then run a dry run before pushing.'}
            </p>
          )}
        </div>
      </section>
    </>
  );
}

function Counts(props: {
  result: TaskConfigurationUpdateResults;
  label: string;
}): React.JSX.Element {
  const cells = [
    { key: 'added', label: 'Added', icon: CirclePlus, tone: 'tone-success' },
    { key: 'updated', label: 'Updated', icon: CircleDot, tone: 'tone-accent' },
    { key: 'removed', label: 'Removed', icon: CircleMinus, tone: 'tone-danger' },
    { key: 'unchanged', label: 'Unchanged', icon: CircleCheck, tone: 'tone-muted' },
  ] as const;
  return (
    <div className="count-grid" role="group" aria-label={`${props.label} results`}>
      {cells.map((c) => {
        const Icon = c.icon;
        return (
          <div key={c.key} className="count-cell" data-testid={`count-${c.key}`}>
            <div className="count-value">{props.result[c.key]}</div>
            <div className={`count-label ${c.tone}`}>
              <Icon size={13} aria-hidden="true" />
              {c.label}
            </div>
          </div>
        );
      })}
    </div>
  );
}
