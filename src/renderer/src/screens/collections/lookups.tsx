/**
 * The lookup playground: a single or multiple lookup with its expected type, and the
 * results linked to their artifacts (the artifact page) and collections (this area).
 */
import { Boxes, FileQuestion, Library, Network, Play } from 'lucide-react';
import { useId, useState } from 'react';
import { RelationsGraph } from '@renderer/kit/relations-graph';
import { collectionMutations } from '@renderer/queries/collections';
import { useMutationOf } from '@renderer/queries/hooks';
import type { LookupResult } from '@shared/contract';
import { problemOf } from '@renderer/kit/errors/problem';
import { ProblemBanner } from '@renderer/kit/errors/problem-banner';
import { StructuredField } from '@renderer/kit/structured-field';
import { useCollectionsUi } from './ui';
import { TableHead } from '@renderer/components/table-head';
import { ChoiceSelect } from '@renderer/components/choice-select';
import { useOpen } from '@renderer/kit/navigation';

const EXPECT_TYPES = ['artifact', 'collection', 'artifact-or-promise', 'bare', 'any'] as const;
type ExpectType = (typeof EXPECT_TYPES)[number];

const EXAMPLES: Record<'single' | 'multiple', string> = {
  single: 'sid@debian:suite/source:hello',
  multiple: '[{collection: sid@debian:suite, child_type: artifact}]',
};

function lookupValue(text: string): number | string {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : t;
}

export function LookupPlayground(props: { workspace: string }): React.JSX.Element {
  const id = useId();
  const [mode, setMode] = useState<'single' | 'multiple'>('single');
  const [single, setSingle] = useState('');
  const [multiple, setMultiple] = useState<unknown>([]);
  const [multipleValid, setMultipleValid] = useState(true);
  const [expect, setExpect] = useState<ExpectType>('artifact');
  const [defaultCategory, setDefaultCategory] = useState('');
  const [workRequest, setWorkRequest] = useState('');

  const run = useMutationOf(collectionMutations.lookup);
  const lookUp = (): void => {
    const common = {
      expect_type: expect,
      default_category: defaultCategory.trim() === '' ? null : defaultCategory.trim(),
      // Current servers resolve in the workspace; earlier ones for a work request.
      workspace: props.workspace,
      work_request: workRequest.trim() === '' ? null : Number(workRequest),
    };
    if (mode === 'single') {
      run.mutate({ kind: 'single', request: { lookup: lookupValue(single), ...common } });
      return;
    }
    const list = (Array.isArray(multiple) ? multiple : [multiple]) as (
      number | string | Record<string, unknown>
    )[];
    run.mutate({ kind: 'multiple', request: { lookup: list, ...common } });
  };
  const wrOk =
    workRequest.trim() === '' || (/^\d+$/.test(workRequest.trim()) && Number(workRequest) > 0);
  const canRun =
    wrOk && (mode === 'single' ? single.trim() !== '' : multipleValid) && !run.isPending;

  return (
    <div className="stack">
      <form
        className="pane"
        aria-label="Lookup"
        onSubmit={(event) => {
          event.preventDefault();
          if (canRun) lookUp();
        }}
      >
        <div className="pane-header">
          <h2>Lookup</h2>
          <div className="segmented" role="group" aria-label="Kind of lookup">
            {(['single', 'multiple'] as const).map((m) => (
              <button
                key={m}
                type="button"
                aria-pressed={mode === m}
                onClick={() => {
                  setMode(m);
                  run.reset();
                }}
              >
                {m === 'single' ? 'Single' : 'Multiple'}
              </button>
            ))}
          </div>
        </div>
        <div className="pane-body">
          {mode === 'single' ? (
            <div className="field">
              <label htmlFor={`${id}-lookup`}>Lookup expression</label>
              <input
                id={`${id}-lookup`}
                className="input mono"
                value={single}
                placeholder={EXAMPLES.single}
                aria-describedby={`${id}-lookup-hint`}
                onChange={(event) => {
                  setSingle(event.target.value);
                }}
              />
              <span className="field-hint" id={`${id}-lookup-hint`}>
                An id, <span className="mono">name@category[/segment…]</span>,{' '}
                <span className="mono">N@artifacts</span> or{' '}
                <span className="mono">N@collections</span>;{' '}
                <span className="mono">{'//workspace=W/…'}</span> looks in another workspace.
              </span>
            </div>
          ) : (
            <StructuredField
              label="Lookups (a list of expressions and dict lookups)"
              format="yaml"
              value={multiple}
              minLines={5}
              testId="lookup-multiple-editor"
              hint={`For example ${EXAMPLES.multiple}`}
              onChange={(v, ok) => {
                setMultiple(v);
                setMultipleValid(ok);
              }}
            />
          )}
          <div className="form-grid lookup-options">
            <div className="field">
              <label htmlFor={`${id}-expect`}>Expected type</label>
              <ChoiceSelect
                id={`${id}-expect`}
                className="select"
                value={expect}
                choices={EXPECT_TYPES}
                onChange={setExpect}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-category`}>Default category</label>
              <input
                id={`${id}-category`}
                className="input mono"
                value={defaultCategory}
                placeholder="debian:suite"
                onChange={(event) => {
                  setDefaultCategory(event.target.value);
                }}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-wr`}>Work request (earlier servers)</label>
              <input
                id={`${id}-wr`}
                className="input mono"
                inputMode="numeric"
                value={workRequest}
                aria-invalid={!wrOk || undefined}
                aria-describedby={`${id}-wr-hint`}
                onChange={(event) => {
                  setWorkRequest(event.target.value);
                }}
              />
              <span className="field-hint" id={`${id}-wr-hint`}>
                Servers before 0.13 look up for a work request; current ones look up in the
                workspace and ignore it.
              </span>
            </div>
          </div>
          <div className="form-actions">
            <span className="muted">
              Resolved in <span className="mono">{props.workspace}</span>.
            </span>
            <span className="spacer" />
            <button type="submit" className="button primary" disabled={!canRun}>
              <Play size={14} aria-hidden="true" />
              {run.isPending ? 'Looking up…' : 'Look up'}
            </button>
          </div>
        </div>
      </form>
      <ProblemBanner
        problem={run.isError ? problemOf(run.error) : null}
        heading="The lookup failed"
      />
      {run.isSuccess ? <LookupResults results={run.data} /> : null}
    </div>
  );
}

const TYPE_LOOK = {
  a: { label: 'Artifact', icon: Boxes },
  c: { label: 'Collection', icon: Library },
  b: { label: 'Bare', icon: FileQuestion },
} as const;

function LookupResults(props: { results: LookupResult[] }): React.JSX.Element {
  const { openArtifact } = useOpen();
  const select = useCollectionsUi((s) => s.select);
  const setTab = useCollectionsUi((s) => s.setTab);
  const [graphFor, setGraphFor] = useState<number | null>(null);
  return (
    <section className="pane" aria-labelledby="lookup-results-title">
      <div className="pane-header">
        <h2 id="lookup-results-title">
          Results <span className="count-badge">{props.results.length}</span>
        </h2>
      </div>
      <table className="table" aria-label="Lookup results" data-testid="lookup-results">
        <TableHead columns={['#', 'Type', 'Result', 'Collection item', 'In']} />
        <tbody>
          {props.results.map((r, index) => {
            const look = TYPE_LOOK[r.result_type];
            const Icon = look.icon;
            const item = r.collection_item;
            const artifact = r.artifact;
            const collection = r.collection;
            const parent = (r as Record<string, unknown>).parent_collection_lookup;
            const info = (r as Record<string, unknown>).collection_info;
            return (
              <tr key={index}>
                <td className="mono muted">{index + 1}</td>
                <td>
                  <span className="status-badge">
                    <Icon size={14} aria-hidden="true" />
                    {look.label}
                  </span>
                </td>
                <td>
                  {artifact !== null ? (
                    <span className="row result-actions">
                      <button
                        type="button"
                        className="link-button mono"
                        onClick={() => {
                          openArtifact(artifact);
                        }}
                      >
                        Artifact #{r.artifact}
                      </button>
                      <button
                        type="button"
                        className="button small ghost"
                        aria-expanded={graphFor === artifact}
                        onClick={() => {
                          setGraphFor(graphFor === artifact ? null : artifact);
                        }}
                      >
                        <Network size={13} aria-hidden="true" />
                        Relations
                      </button>
                    </span>
                  ) : collection !== null ? (
                    <button
                      type="button"
                      className="link-button mono"
                      onClick={() => {
                        select({ kind: 'collection', id: collection });
                        setTab('collections');
                      }}
                    >
                      {isNamed(info)
                        ? `${info.name}@${info.category}`
                        : `Collection #${String(r.collection)}`}
                    </button>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td className="mono">
                  {item === null
                    ? '—'
                    : typeof item === 'number'
                      ? `#${String(item)}`
                      : isNamed(item)
                        ? `${item.name} (${item.category})`
                        : JSON.stringify(item)}
                </td>
                <td className="mono muted">{typeof parent === 'string' ? parent : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {graphFor !== null ? (
        <div className="pane-body">
          <RelationsGraph artifactId={graphFor} />
        </div>
      ) : null}
    </section>
  );
}

function isNamed(value: unknown): value is { name: string; category: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { category?: unknown }).category === 'string'
  );
}
