import { FolderOpen, LayoutTemplate, Play, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { EmptyState } from '@renderer/components/empty-state';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { JsonView } from '@renderer/components/json-view';
import { LoadingState } from '@renderer/components/loading-state';
import { StartWorkflowForm } from '@renderer/kit/start-workflow-form';
import { useMutationOf, useServerQuery } from '@renderer/queries/hooks';
import { templateMutations, templateQueries } from '@renderer/queries/templates';
import { canLeave } from '@renderer/state/leave-guard';
import type { WorkflowTemplateData } from '@shared/contract';
import { DetailPane } from '@renderer/kit/detail-pane';
import { useConfirmedDelete } from '@renderer/kit/editor-state';
import { isUnsupported, problemOf } from '@renderer/kit/errors/problem';
import { ListPane, ReloadButton } from '@renderer/kit/list-pane';
import { ProblemBanner } from '@renderer/kit/errors/problem-banner';
import { WorkspacePicker } from '@renderer/kit/workspace-picker';
import { useCurrentWorkspace } from '@renderer/kit/current-workspace';
import { isCurrentForm } from '@renderer/kit/workflow-template';
import { TemplateEditor } from './template-editor';
import '@renderer/kit/kit.css';
import './templates.css';
import { TableHead } from '@renderer/components/table-head';

type Mode = 'view' | 'edit' | 'new' | 'start';

export function TemplatesArea(): React.JSX.Element {
  const { workspace, loading } = useCurrentWorkspace();
  return (
    <div className="editor-area">
      <div className="area-bar">
        <p className="area-lead muted">Workflow templates of a workspace: what users start.</p>
        <WorkspacePicker />
      </div>
      {loading ? (
        <LoadingState />
      ) : workspace === null ? (
        <EmptyState icon={LayoutTemplate} title="No workspace">
          Add a server in Settings, or type a workspace above.
        </EmptyState>
      ) : (
        <Templates workspace={workspace} key={workspace} />
      )}
    </div>
  );
}

function Templates(props: { workspace: string }): React.JSX.Element {
  const { workspace } = props;
  const list = useServerQuery((scope) => templateQueries.list(scope, workspace));
  // Earlier servers (0.11/0.12) cannot list templates: the ones opened by id are kept here.
  const [opened, setOpened] = useState<WorkflowTemplateData[]>([]);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [mode, setMode] = useState<Mode>('view');
  const earlier = list.isError && isUnsupported(list.error);
  const form: 'current' | 'earlier' = earlier ? 'earlier' : 'current';
  const templates = list.data ?? opened;
  const current = templates.find((t) => t.id === selectedId) ?? null;
  const go = (id: number | null, next: Mode): void => {
    if (canLeave()) {
      setSelectedId(id);
      setMode(next);
    }
  };
  const remember = (t: WorkflowTemplateData): void => {
    setOpened((o) => [...o.filter((x) => x.id !== t.id), t]);
  };

  if (list.isPending) return <LoadingState label="Loading templates…" />;
  if (list.isError && !earlier) {
    return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  }

  return (
    <div className="split">
      <ListPane
        titleId="templates-list-title"
        title="Templates"
        count={templates.length}
        actions={
          <>
            {!earlier ? (
              <ReloadButton
                label="Reload templates"
                fetching={list.isFetching}
                onClick={() => void list.refetch()}
              />
            ) : null}
            <button
              type="button"
              className="button small"
              onClick={() => {
                go(null, 'start');
              }}
            >
              <Play size={14} aria-hidden="true" />
              Start workflow
            </button>
            <button
              type="button"
              className="button small primary"
              onClick={() => {
                go(null, 'new');
              }}
            >
              <Plus size={14} aria-hidden="true" />
              New
            </button>
          </>
        }
      >
        {earlier ? (
          <OpenById
            workspace={workspace}
            message={list.error instanceof Error ? list.error.message : ''}
            onOpened={(t) => {
              remember(t);
              go(t.id, 'view');
            }}
          />
        ) : null}
        {templates.length === 0 ? (
          earlier ? null : (
            <EmptyState icon={LayoutTemplate} title="No templates">
              This workspace has no workflow templates yet.
            </EmptyState>
          )
        ) : (
          <table className="table list-table" aria-label="Workflow templates">
            <TableHead
              widths={['38%', null, 64, 52]}
              columns={['Name', 'Workflow', 'Priority', 'Id']}
            />
            <tbody>
              {templates.map((t) => (
                <tr key={t.id} aria-selected={t.id === selectedId}>
                  <td>
                    <button
                      type="button"
                      className="row-button mono"
                      aria-current={t.id === selectedId ? 'true' : undefined}
                      onClick={() => {
                        if (t.id !== selectedId || mode !== 'view') go(t.id, 'view');
                      }}
                    >
                      {t.name}
                    </button>
                  </td>
                  <td className="mono cell-ellipsis">
                    {t.task_name}
                    {(t as { restricted?: unknown }).restricted === true ? (
                      <span className="tag attention restricted-tag">restricted</span>
                    ) : null}
                  </td>
                  <td className="mono muted">{t.priority}</td>
                  <td className="mono muted">{t.id}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListPane>
      <section className="pane" aria-label="Template">
        {mode === 'new' ? (
          <TemplateEditor
            workspace={workspace}
            original={null}
            form={form}
            onDone={(saved) => {
              if (saved) remember(saved);
              setSelectedId(saved?.id ?? null);
              setMode('view');
            }}
          />
        ) : mode === 'start' ? (
          <>
            <div className="pane-header">
              <h2>Start a workflow</h2>
            </div>
            <div className="pane-body">
              <StartWorkflowForm
                workspace={workspace}
                {...(current ? { initialTemplate: current.name } : {})}
              />
            </div>
          </>
        ) : current && mode === 'edit' ? (
          <TemplateEditor
            workspace={workspace}
            original={current}
            form={isCurrentForm(current) ? 'current' : 'earlier'}
            key={current.id}
            onDone={(saved) => {
              if (saved) remember(saved);
              setMode('view');
            }}
          />
        ) : current ? (
          <TemplateDetail
            workspace={workspace}
            template={current}
            onEdit={() => {
              setMode('edit');
            }}
            onStart={() => {
              setMode('start');
            }}
            onDeleted={() => {
              setOpened((o) => o.filter((x) => x.id !== current.id));
              setSelectedId(null);
            }}
          />
        ) : (
          <EmptyState icon={LayoutTemplate} title="No template selected">
            Pick a template to see its parameters, edit it or start a workflow from it.
          </EmptyState>
        )}
      </section>
    </div>
  );
}

function OpenById(props: {
  workspace: string;
  message: string;
  onOpened: (t: WorkflowTemplateData) => void;
}): React.JSX.Element {
  const id = useId();
  const [text, setText] = useState('');
  const open = useMutationOf(templateMutations.open, {
    onSuccess: (t) => {
      setText('');
      props.onOpened(t);
    },
  });
  return (
    <div className="pane-body earlier-note">
      <div className="info-banner" role="note">
        <p>
          Listing templates is not offered by this server
          {/\(Debusine ([^)]+)\)/.exec(props.message)?.[1]
            ? ` (Debusine ${/\(Debusine ([^)]+)\)/.exec(props.message)?.[1] ?? ''})`
            : ''}
          : open one by its id, or create one. Its templates use task data.
        </p>
      </div>
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          if (/^\d+$/.test(text.trim()))
            open.mutate({ workspace: props.workspace, id: Number(text) });
        }}
      >
        <div className="field grow">
          <label htmlFor={`${id}-id`}>Template id</label>
          <input
            id={`${id}-id`}
            className="input mono"
            inputMode="numeric"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
            }}
          />
        </div>
        <button type="submit" className="button" disabled={!/^\d+$/.test(text.trim())}>
          <FolderOpen size={14} aria-hidden="true" />
          Open
        </button>
      </form>
      <ProblemBanner
        problem={open.isError ? problemOf(open.error) : null}
        heading="Could not open it"
        keep={false}
      />
    </div>
  );
}

function TemplateDetail(props: {
  workspace: string;
  template: WorkflowTemplateData;
  onEdit: () => void;
  onStart: () => void;
  onDeleted: () => void;
}): React.JSX.Element {
  const { workspace, template: t } = props;
  const deletion = useConfirmedDelete({
    mutation: templateMutations.remove,
    onDeleted: props.onDeleted,
  });
  const current = isCurrentForm(t);
  const groups = (t as { extra_groups?: unknown }).extra_groups;
  return (
    <DetailPane
      heading={t.name}
      actions={
        <button type="button" className="button small" onClick={props.onStart}>
          <Play size={14} aria-hidden="true" />
          Start
        </button>
      }
      onEdit={props.onEdit}
      deletion={deletion}
      onConfirmDelete={() => {
        deletion.remove.mutate({ workspace, id: t.id });
      }}
      confirmTitle={`Delete template ${t.name}?`}
      confirmLabel="Delete template"
      confirmText={<p>Workflows already started from it keep running.</p>}
    >
      <dl className="props">
        <dt>Id</dt>
        <dd className="mono">{t.id}</dd>
        <dt>Workflow</dt>
        <dd className="mono">{t.task_name}</dd>
        <dt>Priority</dt>
        <dd className="mono">{t.priority}</dd>
        {current ? (
          <>
            <dt>Restricted</dt>
            <dd>
              {(t as { restricted?: unknown }).restricted === true
                ? 'Yes: only workspace owners may start it'
                : 'No'}
            </dd>
            <dt>Extra groups</dt>
            <dd className="mono">
              {Array.isArray(groups) && groups.length ? groups.map(String).join(', ') : '—'}
            </dd>
          </>
        ) : null}
      </dl>
      {current ? (
        <>
          <h3 className="section-title">Static parameters</h3>
          <JsonView value={t.static_parameters ?? {}} label="Static parameters" />
          <h3 className="section-title">Runtime parameters</h3>
          <JsonView value={t.runtime_parameters ?? {}} label="Runtime parameters" />
        </>
      ) : (
        <>
          <h3 className="section-title">Task data</h3>
          <JsonView value={t.task_data} label="Task data" />
        </>
      )}
    </DetailPane>
  );
}
