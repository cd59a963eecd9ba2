/**
 * The relations of an artifact, drawn small: the artifact in the middle, the artifacts
 * relating to it on the left, those it relates to on the right (SVG). The same relations
 * are listed below as a table, which is what screen readers and keyboards use, with a form
 * to add one (extends, relates-to, built-using).
 */
import { Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { artifactMutations, artifactQueries, type RelationType } from '@renderer/queries/artifacts';
import { useMutationOf, useServerQuery } from '@renderer/queries/hooks';
import type { RelationResponse } from '@shared/contract';
import { isDebusineError } from '@shared/errors';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import './relations-graph.css';
import { TableHead } from '@renderer/components/table-head';
import { ChoiceSelect } from '@renderer/components/choice-select';
import { useOpen } from './navigation';

const TYPES: readonly RelationType[] = ['extends', 'relates-to', 'built-using'];
const DIRECTIONS = ['out', 'in'] as const;

const NODE_W = 116;
const NODE_H = 26;
const ROW = 40;
const WIDTH = 560;

export function RelationsGraph(props: { artifactId: number }): React.JSX.Element {
  const { artifactId } = props;
  const relations = useServerQuery((scope) => artifactQueries.relations(scope, artifactId));
  return (
    <section className="relations" aria-labelledby={`relations-${String(artifactId)}`}>
      <h3 className="relations-title" id={`relations-${String(artifactId)}`}>
        Relations of artifact <span className="mono">#{artifactId}</span>
      </h3>
      {relations.isPending ? (
        <LoadingState label="Loading relations…" />
      ) : relations.isError ? (
        <ErrorState error={relations.error} onRetry={() => void relations.refetch()} />
      ) : relations.data.from.length + relations.data.to.length === 0 ? (
        <p className="muted">No relations from or to this artifact.</p>
      ) : (
        <>
          <Graph artifactId={artifactId} from={relations.data.from} to={relations.data.to} />
          <RelationList from={relations.data.from} to={relations.data.to} />
        </>
      )}
      <CreateRelation artifactId={artifactId} />
    </section>
  );
}

function Graph(props: {
  artifactId: number;
  from: RelationResponse[];
  to: RelationResponse[];
}): React.JSX.Element {
  const rows = Math.max(props.from.length, props.to.length, 1);
  const height = rows * ROW + 16;
  const centre = { x: WIDTH / 2, y: height / 2 };
  const column = (list: RelationResponse[], x: number, other: (r: RelationResponse) => number) =>
    list.map((r, i) => ({
      r,
      other: other(r),
      x,
      y: 8 + (i + 0.5) * ROW + ((rows - list.length) * ROW) / 2,
    }));
  const left = column(props.to, 8 + NODE_W / 2, (r) => r.artifact);
  const right = column(props.from, WIDTH - 8 - NODE_W / 2, (r) => r.target);
  const summary = `Artifact ${String(props.artifactId)}: ${String(props.from.length)} relations from it, ${String(props.to.length)} to it. The table below lists them.`;
  return (
    <svg
      className="relations-svg"
      viewBox={`0 0 ${String(WIDTH)} ${String(height)}`}
      role="img"
      aria-label={summary}
      data-testid="relations-svg"
    >
      <defs>
        <marker
          id="relations-arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M0,0 L10,5 L0,10 z" className="relations-arrowhead" />
        </marker>
      </defs>
      {[...left, ...right].map(({ r, x, y }) => {
        const fromLeft = x < centre.x;
        const x1 = fromLeft ? x + NODE_W / 2 : centre.x + NODE_W / 2;
        const y1 = fromLeft ? y : centre.y;
        const x2 = fromLeft ? centre.x - NODE_W / 2 : x - NODE_W / 2;
        const y2 = fromLeft ? centre.y : y;
        const mx = (x1 + x2) / 2;
        return (
          <g key={`${String(r.id)}-${fromLeft ? 'in' : 'out'}`} className={`edge edge-${r.type}`}>
            <path
              d={`M${String(x1)},${String(y1)} C${String(mx)},${String(y1)} ${String(mx)},${String(y2)} ${String(x2 - 2)},${String(y2)}`}
              markerEnd="url(#relations-arrow)"
            />
            {/* Labels sit by the outer node, where edges are apart. */}
            <text
              x={fromLeft ? x1 + 6 : x2 - 8}
              y={(fromLeft ? y1 : y2) - 5}
              textAnchor={fromLeft ? 'start' : 'end'}
            >
              {r.type}
            </text>
          </g>
        );
      })}
      {[...left, ...right].map(({ r, other, x, y }) => (
        <g key={`n-${String(r.id)}-${String(x)}`} className="node">
          <rect x={x - NODE_W / 2} y={y - NODE_H / 2} width={NODE_W} height={NODE_H} rx="5" />
          <text x={x} y={y + 4} textAnchor="middle">
            #{other}
          </text>
        </g>
      ))}
      <g className="node node-self">
        <rect
          x={centre.x - NODE_W / 2}
          y={centre.y - NODE_H / 2}
          width={NODE_W}
          height={NODE_H}
          rx="5"
        />
        <text x={centre.x} y={centre.y + 4} textAnchor="middle">
          #{props.artifactId}
        </text>
      </g>
    </svg>
  );
}

function RelationList(props: {
  from: RelationResponse[];
  to: RelationResponse[];
}): React.JSX.Element {
  const { openArtifact } = useOpen();
  const rows = [
    ...props.from.map((r) => ({ r, direction: 'to' as const, other: r.target })),
    ...props.to.map((r) => ({ r, direction: 'from' as const, other: r.artifact })),
  ];
  return (
    <table className="table relations-table" aria-label="Relations" data-testid="relations-list">
      <TableHead columns={['Direction', 'Type', 'Artifact']} />
      <tbody>
        {rows.map(({ r, direction, other }) => (
          <tr key={`${String(r.id)}-${direction}`}>
            <td>{direction === 'to' ? 'This artifact →' : '→ this artifact'}</td>
            <td className="mono">{r.type}</td>
            <td>
              <button
                type="button"
                className="relations-link mono"
                onClick={() => {
                  openArtifact(other);
                }}
              >
                #{other}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreateRelation(props: { artifactId: number }): React.JSX.Element {
  const id = useId();
  const [type, setType] = useState<RelationType>('relates-to');
  const [direction, setDirection] = useState<(typeof DIRECTIONS)[number]>('out');
  const [other, setOther] = useState('');
  const otherId = /^\d+$/.test(other.trim()) ? Number(other) : null;
  const create = useMutationOf(artifactMutations.relate, {
    onSuccess: (_relation, _args, invalidated) => {
      setOther('');
      return invalidated;
    },
  });
  return (
    <form
      className="relations-form"
      aria-label={`Add a relation to artifact ${String(props.artifactId)}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (otherId !== null && otherId > 0)
          create.mutate({ artifactId: props.artifactId, otherId, direction, type });
      }}
    >
      <div className="relations-field">
        <label htmlFor={`${id}-direction`}>Direction</label>
        <ChoiceSelect
          id={`${id}-direction`}
          className="select"
          value={direction}
          choices={DIRECTIONS}
          labels={{ out: 'From this artifact', in: 'To this artifact' }}
          onChange={setDirection}
        />
      </div>
      <div className="relations-field">
        <label htmlFor={`${id}-type`}>Type</label>
        <ChoiceSelect
          id={`${id}-type`}
          className="select mono"
          value={type}
          choices={TYPES}
          onChange={setType}
        />
      </div>
      <div className="relations-field">
        <label htmlFor={`${id}-other`}>Other artifact id</label>
        <input
          id={`${id}-other`}
          className="input mono"
          inputMode="numeric"
          value={other}
          onChange={(event) => {
            setOther(event.target.value);
          }}
        />
      </div>
      <button
        type="submit"
        className="button"
        disabled={otherId === null || otherId <= 0 || create.isPending}
      >
        <Plus size={14} aria-hidden="true" />
        Add relation
      </button>
      {create.isError ? (
        <p className="field-error relations-error" role="alert">
          {isDebusineError(create.error) && typeof create.error.details.title === 'string'
            ? `${create.error.details.title}${typeof create.error.details.detail === 'string' ? `: ${create.error.details.detail}` : ''}`
            : create.error.message}
        </p>
      ) : null}
    </form>
  );
}
