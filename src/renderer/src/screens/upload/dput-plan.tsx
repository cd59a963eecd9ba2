import { CircleAlert, GitBranch, Package } from 'lucide-react';
import type { LocalArtifactDraft, WorkflowProposal } from '@shared/contract';
import { visibleText } from '@shared/visible-text';

/** The task data as it will be sent, "@UPLOAD@" read as what it stands for. */
function describeData(data: WorkflowProposal['data']): string {
  return Object.entries(data)
    .map(([key, value]) => `${key}: ${value === '@UPLOAD@' ? 'the upload' : JSON.stringify(value)}`)
    .join(', ');
}

/**
 * What an upload makes on the server (for a .changes, what dput makes: the upload, its
 * source package and one binary package per .deb, related by the upload), and the workflow
 * the user's dput-ng profile starts after it.
 */
export function DputPlan(props: { draft: LocalArtifactDraft }): React.JSX.Element | null {
  const { parts, notes, workflow } = props.draft;
  if (parts.length <= 1 && notes.length === 0 && workflow === null) return null;
  const [first, ...others] = parts;
  return (
    <section className="dput-plan" aria-label="What the upload makes" data-testid="dput-plan">
      {parts.length > 1 && first ? (
        <div className="dput-parts">
          <h3>
            <Package size={14} aria-hidden="true" /> Makes {parts.length} artifacts, as dput does
          </h3>
          <ul>
            {parts.map((part, index) => (
              <li key={`${part.category}:${part.label}`}>
                <span className="mono">{part.category}</span>{' '}
                <span className="mono muted">{visibleText(part.label)}</span>
                {index > 0 ? (
                  <span className="muted"> · extends, relates-to from the upload</span>
                ) : null}
              </li>
            ))}
          </ul>
          {others.length === 0 ? null : (
            <p className="field-hint">
              Each file is sent once: the packages find the upload&rsquo;s files on the server.
            </p>
          )}
        </div>
      ) : null}
      {notes.length > 0 ? (
        <ul className="dput-notes muted">
          {notes.map((note) => (
            <li key={note}>{visibleText(note)}</li>
          ))}
        </ul>
      ) : null}
      {workflow ? <WorkflowLine workflow={workflow} /> : null}
    </section>
  );
}

function WorkflowLine(props: { workflow: WorkflowProposal }): React.JSX.Element {
  const w = props.workflow;
  const from =
    w.profile === null ? null : (
      <span className="field-hint block">
        From the dput-ng profile <span className="mono">{visibleText(w.profile)}</span> (
        {w.profileFiles.map((f) => visibleText(f)).join(', ')}).
      </span>
    );
  if (w.problem !== null || w.template === null) {
    return (
      <div className="dput-workflow problem-box" role="note" data-testid="dput-workflow-problem">
        <CircleAlert size={14} aria-hidden="true" className="tone-danger" />
        <span>
          dput would refuse this upload: {visibleText(w.problem ?? 'no workflow')}.{from}
        </span>
      </div>
    );
  }
  return (
    <div className="dput-workflow" data-testid="dput-workflow">
      <GitBranch size={14} aria-hidden="true" />
      <span>
        Then starts <span className="mono strong">{visibleText(w.template)}</span> in{' '}
        <span className="mono">{visibleText(w.workspace ?? '')}</span>, for the Distribution{' '}
        <span className="mono">{visibleText(w.distribution)}</span>
        {Object.keys(w.data).length > 0 ? (
          <span className="muted"> ({visibleText(describeData(w.data))})</span>
        ) : null}
        .{from}
      </span>
    </div>
  );
}
