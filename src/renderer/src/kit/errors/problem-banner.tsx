import { TriangleAlert } from 'lucide-react';
import type { Problem } from './problem';

/** A refused save: the server's title and detail, and field errors no field shows. */
export function ProblemBanner(props: {
  problem: Problem | null;
  /** Field errors shown elsewhere are left out here. */
  extra?: string[];
  heading?: string;
  /** Says the edit is kept (editors); false for one-off actions. */
  keep?: boolean;
}): React.JSX.Element | null {
  const { problem } = props;
  if (!problem) return null;
  return (
    <div className="problem-banner" role="alert" data-testid="problem-banner">
      <TriangleAlert size={16} aria-hidden="true" className="tone-danger" />
      <div>
        <p className="problem-title">
          {props.heading ?? 'The server refused the change'}: {problem.title}
        </p>
        {problem.detail ? <p className="problem-detail mono">{problem.detail}</p> : null}
        {props.extra && props.extra.length > 0 ? (
          <ul className="problem-list">
            {props.extra.map((m) => (
              <li key={m} className="mono">
                {m}
              </li>
            ))}
          </ul>
        ) : null}
        {props.keep === false ? null : (
          <p className="muted">Your edit is kept: correct it and save again.</p>
        )}
      </div>
    </div>
  );
}
