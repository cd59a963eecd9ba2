/**
 * A workspace's inheritance chain: reordered by drag and drop or by keyboard (Alt+↑/↓ on an
 * element, or its buttons), elements added as `workspace`, `scope/workspace` or `#id`,
 * checked (an id or a workspace; no duplicates) before saving, and the server's answer shown.
 */
import {
  ArrowDown,
  ArrowUp,
  CircleCheck,
  Eye,
  GitFork,
  GripVertical,
  Plus,
  Trash2,
  Undo2,
} from 'lucide-react';
import { useId, useMemo, useRef, useState } from 'react';
import { useMutationOf, useServerQuery } from '@renderer/queries/hooks';
import { workspaceMutations, workspaceQueries } from '@renderer/queries/workspaces';
import { useUnsavedChanges } from '@renderer/state/leave-guard';
import { DirtyNote } from '@renderer/kit/editor-actions';
import type { WorkspaceInheritanceChain } from '@shared/contract';
import { problemOf, type Problem } from '@renderer/kit/errors/problem';
import { featureQuery } from '@renderer/kit/errors/feature-error';
import { ProblemBanner } from '@renderer/kit/errors/problem-banner';
import { ReviewDialog } from '@renderer/kit/review-dialog';
import { sameJson, toText } from '@renderer/kit/text';
import { useWorkspaceStore } from '@renderer/state/workspace';
import {
  chainProblems,
  describeElement,
  entry,
  moved,
  parseElement,
  plain,
  type ChainEntry,
} from './inheritance-model';
import { TableHead } from '@renderer/components/table-head';

export function InheritanceEditor(props: { workspace: string }): React.JSX.Element {
  const { workspace } = props;
  const chain = useServerQuery((scope) => workspaceQueries.inheritance(scope, workspace));
  const got = featureQuery(chain, {
    loading: 'Loading the inheritance chain…',
    feature: 'Workspace inheritance',
    since: '0.12',
  });
  return 'view' in got ? got.view : <ChainEditor workspace={workspace} server={got.data} />;
}

function ChainEditor(props: {
  workspace: string;
  server: WorkspaceInheritanceChain;
}): React.JSX.Element {
  const { workspace, server } = props;
  const recent = useWorkspaceStore((s) => s.recent);
  const remember = useWorkspaceStore((s) => s.remember);
  const base = useMemo(() => server.chain.map(entry), [server]);
  const [draft, setDraft] = useState<ChainEntry[]>(base);
  const [adding, setAdding] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [reviewing, setReviewing] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [answer, setAnswer] = useState<WorkspaceInheritanceChain | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const items = useRef(new Map<string, HTMLLIElement>());
  const id = useId();

  const dirty = !sameJson(plain(draft), plain(base));
  useUnsavedChanges(dirty, `Unsaved changes to the inheritance of ${workspace}.`);
  const problems = chainProblems(plain(draft));

  const save = useMutationOf(workspaceMutations.setInheritance, {
    onSuccess: (result) => {
      setReviewing(false);
      setProblem(null);
      setAnswer(result);
      for (const e of result.chain) if (e.workspace) remember(e.workspace);
    },
    onError: (error) => {
      setReviewing(false);
      setProblem(problemOf(error));
    },
  });

  const change = (next: ChainEntry[], message: string): void => {
    setDraft(next);
    setAnswer(null);
    setAnnouncement(message);
  };
  const move = (from: number, to: number, focus = true): void => {
    const e = draft[from];
    if (!e || to < 0 || to >= draft.length || from === to) return;
    change(
      moved(draft, from, to),
      `${describeElement(e)} moved to position ${String(to + 1)} of ${String(draft.length)}.`,
    );
    if (focus) {
      requestAnimationFrame(() => {
        items.current.get(e.key)?.focus();
      });
    }
  };
  const add = (): void => {
    let element;
    try {
      element = parseElement(adding);
    } catch (error) {
      setAddError(error instanceof Error ? error.message : String(error));
      return;
    }
    const clash = chainProblems([...plain(draft), element]).get(draft.length);
    if (clash) {
      setAddError(`${describeElement(element)} is already in the chain.`);
      return;
    }
    setAddError(null);
    setAdding('');
    change([...draft, entry(element)], `${describeElement(element)} added at the end.`);
  };
  const suggestions = [...new Set(recent)].filter(
    (w) => w !== workspace && !draft.some((e) => e.workspace === w),
  );

  return (
    <div className="split inheritance">
      <section className="pane" aria-labelledby={`${id}-title`}>
        <div className="pane-header">
          <h2 id={`${id}-title`}>
            <span className="mono">{workspace}</span> inherits from
          </h2>
          <DirtyNote dirty={dirty} />
        </div>
        <div className="pane-body">
          <ProblemBanner problem={problem} />
          <p className="field-hint" id={`${id}-help`}>
            Earlier elements are looked in first. Drag an element by its handle, or focus it and
            press Alt+↑ / Alt+↓ to move it; Delete removes it.
          </p>
          <div aria-live="polite" className="visually-hidden" role="status">
            {announcement}
          </div>
          {draft.length === 0 ? (
            <p className="chain-empty muted">
              <GitFork size={14} aria-hidden="true" /> No parents: this workspace inherits nothing.
            </p>
          ) : (
            <ol
              className="row-list chain"
              aria-label={`Inheritance chain of ${workspace}`}
              aria-describedby={`${id}-help`}
              data-testid="inheritance-chain"
            >
              {draft.map((e, index) => {
                const label = describeElement(e);
                const issue = problems.get(index);
                return (
                  <li
                    key={e.key}
                    ref={(el) => {
                      if (el) items.current.set(e.key, el);
                      else items.current.delete(e.key);
                    }}
                    tabIndex={0}
                    className={[
                      'chain-item',
                      dragging === index ? 'dragging' : '',
                      dropAt === index && dragging !== null && dragging !== index
                        ? dragging < index
                          ? 'drop-after'
                          : 'drop-before'
                        : '',
                      issue ? 'has-issue' : '',
                    ].join(' ')}
                    aria-label={`${String(index + 1)}. ${label}${issue ? `: ${issue}` : ''}`}
                    draggable
                    onDragStart={(event) => {
                      setDragging(index);
                      event.dataTransfer.effectAllowed = 'move';
                      event.dataTransfer.setData('text/plain', label);
                    }}
                    onDragOver={(event) => {
                      if (dragging === null) return;
                      event.preventDefault();
                      setDropAt(index);
                    }}
                    onDrop={(event) => {
                      event.preventDefault();
                      if (dragging !== null) move(dragging, index, false);
                      setDragging(null);
                      setDropAt(null);
                    }}
                    onDragEnd={() => {
                      setDragging(null);
                      setDropAt(null);
                    }}
                    onKeyDown={(event) => {
                      if (event.target !== event.currentTarget) return;
                      if (event.altKey && event.key === 'ArrowUp') move(index, index - 1);
                      else if (event.altKey && event.key === 'ArrowDown') move(index, index + 1);
                      else if (event.key === 'Delete') {
                        change(
                          draft.filter((_, i) => i !== index),
                          `${label} removed.`,
                        );
                      } else return;
                      event.preventDefault();
                    }}
                  >
                    <GripVertical size={14} aria-hidden="true" className="grip" />
                    <span className="chain-pos mono">{index + 1}</span>
                    <span className="chain-name mono">{label}</span>
                    {e.id !== null && e.workspace !== null ? (
                      <span className="tag mono">#{e.id}</span>
                    ) : null}
                    {issue ? <span className="field-error">{issue}</span> : null}
                    <span className="chain-actions">
                      <button
                        type="button"
                        className="button small icon-only ghost"
                        aria-label={`Move ${label} up`}
                        title="Move up (Alt+↑)"
                        disabled={index === 0}
                        tabIndex={-1}
                        onClick={() => {
                          move(index, index - 1);
                        }}
                      >
                        <ArrowUp size={14} aria-hidden="true" />
                      </button>
                      <button
                        type="button"
                        className="button small icon-only ghost"
                        aria-label={`Move ${label} down`}
                        title="Move down (Alt+↓)"
                        disabled={index === draft.length - 1}
                        tabIndex={-1}
                        onClick={() => {
                          move(index, index + 1);
                        }}
                      >
                        <ArrowDown size={14} aria-hidden="true" />
                      </button>
                      <button
                        type="button"
                        className="button small icon-only ghost"
                        aria-label={`Remove ${label}`}
                        title="Remove (Delete)"
                        tabIndex={-1}
                        onClick={() => {
                          change(
                            draft.filter((_, i) => i !== index),
                            `${label} removed.`,
                          );
                        }}
                      >
                        <Trash2 size={14} aria-hidden="true" />
                      </button>
                    </span>
                  </li>
                );
              })}
            </ol>
          )}
          <form
            className="row add-parent"
            onSubmit={(event) => {
              event.preventDefault();
              add();
            }}
          >
            <div className="field grow">
              <label htmlFor={`${id}-add`}>Add a parent workspace</label>
              <input
                id={`${id}-add`}
                className="input mono"
                list={`${id}-suggestions`}
                value={adding}
                placeholder="workspace, scope/workspace or #id"
                aria-invalid={addError !== null || undefined}
                aria-describedby={addError ? `${id}-add-error` : undefined}
                onChange={(event) => {
                  setAdding(event.target.value);
                  setAddError(null);
                }}
              />
              <datalist id={`${id}-suggestions`}>
                {suggestions.map((w) => (
                  <option key={w} value={w} />
                ))}
              </datalist>
            </div>
            <button type="submit" className="button" disabled={adding.trim() === ''}>
              <Plus size={14} aria-hidden="true" />
              Add
            </button>
          </form>
          {addError ? (
            <p className="field-error" id={`${id}-add-error`} role="alert">
              {addError}
            </p>
          ) : null}
          <div className="form-actions">
            <span className="spacer" />
            <button
              type="button"
              className="button"
              disabled={!dirty}
              onClick={() => {
                change(base, 'Changes discarded.');
                setProblem(null);
              }}
            >
              <Undo2 size={14} aria-hidden="true" />
              Discard
            </button>
            <button
              type="button"
              className="button primary"
              disabled={!dirty || problems.size > 0}
              onClick={() => {
                setReviewing(true);
              }}
            >
              <Eye size={14} aria-hidden="true" />
              Review and save…
            </button>
          </div>
        </div>
      </section>
      <section className="pane" aria-labelledby={`${id}-server-title`}>
        <div className="pane-header">
          <h2 id={`${id}-server-title`}>On the server</h2>
        </div>
        <div className="pane-body">
          {answer ? (
            <p className="saved-note" role="status">
              <CircleCheck size={14} aria-hidden="true" />
              Saved. The server now answers this chain:
            </p>
          ) : (
            <p className="muted">The chain the server holds:</p>
          )}
          <ServerChain chain={answer ?? server} />
        </div>
      </section>
      <ReviewDialog
        open={reviewing}
        title={`Changes to the inheritance of ${workspace}`}
        before={toText(plain(base).map(describeElement), 'yaml')}
        after={toText(plain(draft).map(describeElement), 'yaml')}
        saving={save.isPending}
        onConfirm={() => {
          save.mutate({ workspace, chain: plain(draft) });
        }}
        onCancel={() => {
          setReviewing(false);
        }}
      />
    </div>
  );
}

function ServerChain(props: { chain: WorkspaceInheritanceChain }): React.JSX.Element {
  if (props.chain.chain.length === 0) return <p className="muted">No parents.</p>;
  return (
    <table
      className="table"
      aria-label="Inheritance chain on the server"
      data-testid="server-chain"
    >
      <TableHead columns={['#', 'Scope', 'Workspace', 'Id']} />
      <tbody>
        {props.chain.chain.map((e, i) => (
          <tr key={i}>
            <td className="mono muted">{i + 1}</td>
            <td className="mono">{e.scope ?? '—'}</td>
            <td className="mono">{e.workspace ?? '—'}</td>
            <td className="mono muted">{e.id ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
