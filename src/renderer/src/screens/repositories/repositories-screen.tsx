/**
 * Personal APT repositories: on the left, the repositories the app knows on this server (made
 * here from a template of `developers`, or named by the user), with the form that makes one;
 * on the right, the selected one's suites, what apt needs, its packages and its viewer
 * tokens (repository-detail.tsx).
 */
import { Archive, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { EmptyState } from '@renderer/components/empty-state';
import { LoadingState } from '@renderer/components/loading-state';
import { TableHead } from '@renderer/components/table-head';
import { TimeAgo } from '@renderer/components/time-ago';
import { problemOf } from '@renderer/kit/errors/problem';
import { ProblemBanner } from '@renderer/kit/errors/problem-banner';
import { ListPane, ReloadButton } from '@renderer/kit/list-pane';
import { useMutationOf, useServerQuery } from '@renderer/queries/hooks';
import { repositoryMutations, repositoryQueries } from '@renderer/queries/repositories';
import type { RepositoryEntry } from '@shared/contract';
import { RepositoryDetail } from './repository-detail';
import '@renderer/kit/kit.css';
import './repositories.css';

/** Where debusine.debian.net keeps the templates that make repositories. */
const BASE_WORKSPACE = 'developers';

export function RepositoriesArea(): React.JSX.Element {
  const list = useServerQuery((scope) => repositoryQueries.list(scope));
  const [selected, setSelected] = useState<string | null>(null);
  const [making, setMaking] = useState(false);
  const repositories = list.data ?? [];
  const current = repositories.find((r) => r.workspace === selected);

  return (
    <div className="editor-area">
      <div className="split repositories">
        <ListPane
          titleId="repositories-list-title"
          title="Repositories"
          count={repositories.length}
          actions={
            <>
              <ReloadButton
                label="Reload repositories"
                fetching={list.isFetching}
                onClick={() => void list.refetch()}
              />
              <button
                type="button"
                className="button small primary"
                aria-expanded={making}
                onClick={() => {
                  setMaking(!making);
                }}
              >
                <Plus size={14} aria-hidden="true" />
                New repository
              </button>
            </>
          }
        >
          {making ? (
            <NewRepository
              onMade={(entry) => {
                setMaking(false);
                setSelected(entry.workspace);
              }}
              onCancel={() => {
                setMaking(false);
              }}
            />
          ) : null}
          {list.isPending ? (
            <LoadingState label="Loading repositories…" />
          ) : list.isError ? (
            <ProblemBanner
              keep={false}
              problem={problemOf(list.error)}
              heading="Could not list repositories"
            />
          ) : repositories.length === 0 ? (
            <EmptyState icon={Archive} title="No repositories yet">
              A repository is a workspace of your own whose suites Debusine publishes and signs, for
              anyone (or those you let) to install from with apt. Make one, or name one you made
              elsewhere.
            </EmptyState>
          ) : (
            <RepositoryTable
              repositories={repositories}
              selected={current?.workspace ?? null}
              onSelect={(r) => {
                setSelected(r.workspace);
              }}
            />
          )}
          <RememberRepository
            onRemembered={(entry) => {
              setSelected(entry.workspace);
            }}
          />
        </ListPane>
        <section className="pane" aria-label="Repository">
          {current ? (
            <RepositoryDetail
              repository={current}
              key={current.workspace}
              onForgotten={() => {
                setSelected(null);
              }}
            />
          ) : (
            <EmptyState icon={Archive} title="No repository selected">
              Pick a repository on the left to see its suites, how to install from it, and who may.
            </EmptyState>
          )}
        </section>
      </div>
    </div>
  );
}

function stateText(r: RepositoryEntry): { text: string; tone: string } {
  if (r.state === 'creating') return { text: 'being made', tone: 'tone-accent' };
  if (r.state === 'failed') return { text: 'failed', tone: 'tone-danger' };
  if (r.state === 'gone') return { text: 'gone', tone: 'tone-danger' };
  return {
    text: r.kind === 'experiment' ? 'experiment' : r.kind === 'kept' ? 'kept' : 'named',
    tone: 'tone-muted',
  };
}

function RepositoryTable(props: {
  repositories: RepositoryEntry[];
  selected: string | null;
  onSelect: (r: RepositoryEntry) => void;
}): React.JSX.Element {
  return (
    <table className="table list-table" aria-label="Repositories">
      <TableHead widths={[null, 96, 64]} columns={['Workspace', 'Kind', 'Access']} />
      <tbody>
        {props.repositories.map((r) => {
          const state = stateText(r);
          return (
            <tr key={r.workspace} aria-selected={r.workspace === props.selected}>
              <td>
                <button
                  type="button"
                  className="row-button mono"
                  aria-current={r.workspace === props.selected ? 'true' : undefined}
                  onClick={() => {
                    props.onSelect(r);
                  }}
                >
                  <span className="repository-name">{r.workspace}</span>
                  <span className="repository-added">
                    added <TimeAgo iso={r.addedAt} />
                  </span>
                </button>
              </td>
              <td className={state.tone}>{state.text}</td>
              <td className="muted">{r.public === null ? '—' : r.public ? 'public' : 'private'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function NewRepository(props: {
  onMade: (entry: RepositoryEntry) => void;
  onCancel: () => void;
}): React.JSX.Element {
  const id = useId();
  const [base, setBase] = useState(BASE_WORKSPACE);
  const templates = useServerQuery((scope) => repositoryQueries.templates(scope, base), {
    enabled: base.trim() !== '',
  });
  const [template, setTemplate] = useState('');
  const [suffix, setSuffix] = useState('');
  const [isPublic, setPublic] = useState(true);
  const create = useMutationOf(repositoryMutations.create, {
    onSuccess: (entry) => {
      props.onMade(entry);
    },
  });
  const choices = templates.data ?? [];
  const chosen = choices.find((t) => t.name === template) ?? choices[0];
  const name = chosen ? `${chosen.prefix}-${suffix || '…'}` : '';
  return (
    <form
      className="pane-body repository-form"
      aria-label="New repository"
      onSubmit={(event) => {
        event.preventDefault();
        if (!chosen) return;
        create.mutate({ workspace: base.trim(), template: chosen.name, suffix, public: isPublic });
      }}
    >
      <div className="form-grid">
        <div className="field">
          <label htmlFor={`${id}-base`}>Made in</label>
          <input
            id={`${id}-base`}
            className="input mono"
            value={base}
            onChange={(e) => {
              setBase(e.target.value);
            }}
          />
          <span className="field-hint">The workspace whose templates make repositories.</span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-template`}>Kind</label>
          <select
            id={`${id}-template`}
            className="select"
            value={chosen?.name ?? ''}
            disabled={choices.length === 0}
            onChange={(e) => {
              setTemplate(e.target.value);
            }}
          >
            {choices.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name} (
                {t.kind === 'kept'
                  ? 'kept'
                  : `removed ${String(t.expirationDays)} days after its last task`}
                )
              </option>
            ))}
          </select>
          <span className="field-hint">
            {templates.isError
              ? `No templates read from ${base}: ${problemOf(templates.error).title}`
              : choices.length === 0 && !templates.isPending
                ? `${base} has no template that makes repositories.`
                : chosen?.kind === 'kept'
                  ? 'Kept until you delete it.'
                  : 'An experiment: the server removes it once unused for that long.'}
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-suffix`}>Name</label>
          <input
            id={`${id}-suffix`}
            className="input mono"
            value={suffix}
            required
            pattern="[A-Za-z0-9][A-Za-z0-9+._\-]*"
            placeholder="alice-tools"
            onChange={(e) => {
              setSuffix(e.target.value);
            }}
          />
          <span className="field-hint mono">{name}</span>
        </div>
        <div className="field">
          <span className="field-label">Who may install from it</span>
          <label className="check">
            <input
              type="checkbox"
              checked={isPublic}
              onChange={(e) => {
                setPublic(e.target.checked);
              }}
            />
            Public
          </label>
          <span className="field-hint">
            {isPublic
              ? 'Anyone can read it, as apt reads Debian.'
              : 'Only you, and those you give a viewer token (apt logs in over HTTPS).'}
          </span>
        </div>
      </div>
      <ProblemBanner keep={false} problem={create.isError ? problemOf(create.error) : null} />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={!chosen || create.isPending}>
          {create.isPending ? 'Starting…' : 'Make the repository'}
        </button>
        <button type="button" className="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function RememberRepository(props: {
  onRemembered: (entry: RepositoryEntry) => void;
}): React.JSX.Element {
  const id = useId();
  const [workspace, setWorkspace] = useState('');
  const remember = useMutationOf(repositoryMutations.remember, {
    onSuccess: (entry) => {
      setWorkspace('');
      props.onRemembered(entry);
    },
  });
  return (
    <form
      className="pane-body remember-repository"
      aria-label="Add a repository made elsewhere"
      onSubmit={(event) => {
        event.preventDefault();
        remember.mutate({ workspace: workspace.trim() });
      }}
    >
      <label htmlFor={`${id}-ws`} className="field-label">
        Made elsewhere (dput, the CLI, another machine)?
      </label>
      <div className="inline-form">
        <input
          id={`${id}-ws`}
          className="input mono"
          placeholder="developers-alice-tools"
          value={workspace}
          onChange={(e) => {
            setWorkspace(e.target.value);
          }}
        />
        <button
          type="submit"
          className="button"
          disabled={workspace.trim() === '' || remember.isPending}
        >
          Add
        </button>
      </div>
      <ProblemBanner keep={false} problem={remember.isError ? problemOf(remember.error) : null} />
    </form>
  );
}
