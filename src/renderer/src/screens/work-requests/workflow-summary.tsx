import {
  Ban,
  CircleCheck,
  CircleSlash,
  CircleX,
  Clock,
  Hourglass,
  LoaderCircle,
  Upload,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import type { WorkRequestResponse } from '@shared/contract';
import { endOf, failedByItself, hasEnded, isUnsuccessfulEnd } from '@shared/results/end';
import {
  PACKAGE_UPLOAD_TASK,
  uploadFiles,
  uploadInputId,
  uploadTarget,
} from '@shared/results/upload';
import { OpenButton } from '@renderer/kit/open-button';
import { LoadingState } from '@renderer/components/loading-state';
import { StatusBadge } from '@renderer/components/status-badge';
import { artifactQueries } from '@renderer/queries/artifacts';
import { useServerQuery } from '@renderer/queries/hooks';
import { useWorkflowSteps } from '@renderer/queries/work-requests';
import { FailureLine } from './failure-line';
import { rootOf } from './model';
import { WorkRequestResults } from './results';

/**
 * Steps whose results the summary shows at first, and how many more each "Show more"
 * adds: each costs a read of its artifacts, and a workflow may have hundreds of steps.
 */
export const SUMMARY_STEPS_PAGE = 8;

/** The order a developer reads a pipeline's results in: the build, its checks, the upload. */
const READING_ORDER: Record<string, number> = {
  sbuild: 0,
  lintian: 1,
  autopkgtest: 2,
  piuparts: 3,
  blhc: 4,
  [PACKAGE_UPLOAD_TASK]: 6,
};
const OTHERS = 5;

/** The steps under `id` (its children, theirs, and so on), from the root's steps. */
function branchOf(id: number, rootId: number, steps: readonly WorkRequestResponse[]) {
  if (id === rootId) return steps.filter((s) => s.id !== rootId);
  const under = new Set([id]);
  // Steps come after their parents: one pass in id order finds every descendant.
  const out: WorkRequestResponse[] = [];
  for (const step of [...steps].sort((a, b) => a.id - b.id)) {
    if (step.parent != null && under.has(step.parent) && step.id !== id) {
      under.add(step.id);
      out.push(step);
    }
  }
  return out;
}

/** A step the summary shows: one that made results, failed by itself, or uploads. */
function hasResults(step: WorkRequestResponse): boolean {
  return (
    step.artifacts.length > 0 || failedByItself(step) || step.task_name === PACKAGE_UPLOAD_TASK
  );
}

interface Count {
  key: string;
  label: string;
  icon: LucideIcon;
  tone: string;
  count: number;
}

/** How the tasks of the workflow stand: succeeded, failed, aborted, running, waiting. */
function countsOf(tasks: readonly WorkRequestResponse[]): Count[] {
  const by = (test: (wr: WorkRequestResponse) => boolean) => tasks.filter(test).length;
  const end = (wr: WorkRequestResponse) => endOf(wr);
  const all: Count[] = [
    {
      key: 'success',
      label: 'succeeded',
      icon: CircleCheck,
      tone: 'success',
      count: by((w) => end(w) === 'success'),
    },
    {
      key: 'failed',
      label: 'failed',
      icon: CircleX,
      tone: 'danger',
      count: by((w) => failedByItself(w)),
    },
    {
      key: 'aborted',
      label: 'aborted',
      icon: Ban,
      tone: 'muted',
      count: by((w) => end(w) === 'aborted'),
    },
    {
      key: 'skipped',
      label: 'skipped',
      icon: CircleSlash,
      tone: 'muted',
      count: by((w) => end(w) === 'skipped'),
    },
    {
      key: 'running',
      label: 'running',
      icon: LoaderCircle,
      tone: 'accent',
      count: by((w) => w.status === 'running'),
    },
    {
      key: 'pending',
      label: 'pending',
      icon: Clock,
      tone: 'muted',
      count: by((w) => w.status === 'pending'),
    },
    {
      key: 'blocked',
      label: 'blocked',
      icon: Hourglass,
      tone: 'attention',
      count: by((w) => w.status === 'blocked'),
    },
  ];
  return all.filter((c) => c.count > 0);
}

/**
 * What a workflow came to, on its page: how its steps stand, then each step's results in
 * the views of the step's own page (the build log and where it broke, the binary packages,
 * lintian's counts, the tests, where an upload went), a few steps at a time. Read from
 * the same live list of steps as the tree.
 */
export function WorkflowSummary(props: { root: WorkRequestResponse }): React.JSX.Element {
  const { root } = props;
  const rootId = rootOf(root) ?? root.id;
  const steps = useWorkflowSteps(rootId, true);
  const [limit, setLimit] = useState(SUMMARY_STEPS_PAGE);
  if (steps.isPending) return <LoadingState label="Loading its steps' results…" />;
  // The tree above says why the steps could not be read, with its own Retry.
  if (steps.isError) return <p className="muted">Its steps could not be read.</p>;
  const tasks = branchOf(root.id, rootId, steps.data.steps).filter(
    (s) => s.task_type !== 'Workflow',
  );
  const withResults = tasks
    .filter(hasResults)
    .sort(
      (a, b) =>
        (READING_ORDER[a.task_name] ?? OTHERS) - (READING_ORDER[b.task_name] ?? OTHERS) ||
        a.id - b.id,
    );
  const shown = withResults.slice(0, limit);
  const more = withResults.length - shown.length;
  const counts = countsOf(tasks);
  return (
    <div className="wr-wf-summary" data-testid="workflow-summary">
      <p className="wr-wf-counts" aria-label="Its tasks">
        <span>
          {tasks.length} {tasks.length === 1 ? 'task' : 'tasks'}
        </span>
        {counts.map((c) => (
          <span key={c.key} className={`wr-wf-count tone-${c.tone}`} data-testid={`count-${c.key}`}>
            <c.icon size={13} aria-hidden="true" /> {c.count} {c.label}
          </span>
        ))}
      </p>
      {shown.length === 0 ? (
        <p className="muted">
          {hasEnded(steps.data.root.status)
            ? 'None of its steps made results.'
            : 'No step has made results yet: they appear here as its steps complete.'}
        </p>
      ) : (
        shown.map((step) => <StepResults key={step.id} step={step} />)
      )}
      {more > 0 ? (
        <div className="wr-footer">
          <span>
            {more} more {more === 1 ? 'step' : 'steps'} with results
          </span>
          <button
            type="button"
            className="button small"
            onClick={() => {
              setLimit(limit + SUMMARY_STEPS_PAGE);
            }}
          >
            Show {Math.min(more, SUMMARY_STEPS_PAGE)} more
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** The name a workflow gives its step ("Build amd64"), else its task's name. */
function displayName(step: WorkRequestResponse): string {
  const data: unknown = step.workflow_data;
  const name =
    typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>).display_name
      : undefined;
  return typeof name === 'string' && name.length > 0 ? name : step.task_name;
}

function StepResults(props: { step: WorkRequestResponse }): React.JSX.Element {
  const { step } = props;
  const name = displayName(step);
  // An sbuild step's build log says where it broke, with its line; others say it here.
  const reason = failedByItself(step) && step.task_name !== 'sbuild';
  return (
    <section
      className="wr-step-results"
      aria-label={`Results of ${name} #${String(step.id)}`}
      data-testid={`step-results-${String(step.id)}`}
    >
      <header className="wr-step-results-head">
        <StatusBadge status={step.status} result={step.result} />
        <span className="wr-task-name">{name}</span>
        {name !== step.task_name ? <span className="wr-type">{step.task_name}</span> : null}
        <OpenButton kind="work-request" id={step.id} className="link-button wr-id" />
      </header>
      {reason ? (
        <p className="wr-step-results-reason">
          <FailureLine wr={step} />
        </p>
      ) : null}
      {step.task_name === PACKAGE_UPLOAD_TASK ? <UploadResult step={step} /> : null}
      {step.artifacts.length > 0 ? (
        <WorkRequestResults wr={step} summary />
      ) : step.task_name === PACKAGE_UPLOAD_TASK ? null : (
        // Listed because it failed: say that it left nothing to read, not an empty box.
        <p className="muted wr-results-more">It made no artifacts.</p>
      )}
    </section>
  );
}

/**
 * Where a packageupload step sends its upload, and what went: the files of the upload
 * artifact it was given, which it sends all (shared/results/upload.ts). The step records
 * no list of its own; what is not known is said so.
 */
function UploadResult(props: { step: WorkRequestResponse }): React.JSX.Element {
  const { step } = props;
  const target = uploadTarget(step.task_data);
  const inputId = uploadInputId(step.dynamic_task_data);
  const input = useServerQuery((scope) => artifactQueries.detail(scope, inputId ?? 0), {
    enabled: inputId !== null,
  });
  const files = inputId !== null && input.data ? uploadFiles(input.data) : null;
  const where = target ?? 'a target its task data does not name';
  const count =
    files === null ? null : `${String(files.length)} ${files.length === 1 ? 'file' : 'files'}`;
  const end = endOf(step);
  let text: string;
  if (end === 'success') {
    text = count ? `Uploaded ${count} to ${where}` : `Uploaded to ${where}`;
  } else if (end === 'aborted') {
    text = `Not uploaded: the step was aborted before it ran (target ${where})`;
  } else if (end !== null && isUnsuccessfulEnd(end)) {
    text = `The upload to ${where} failed; its log says how far it went`;
  } else if (end === null) {
    text = count ? `Will upload ${count} to ${where}` : `Will upload to ${where}`;
  } else {
    text = `Upload to ${where}: ${end}`;
  }
  return (
    <div className="wr-upload" data-testid={`upload-${String(step.id)}`}>
      <p>
        <Upload size={14} aria-hidden="true" /> <span data-testid="upload-summary">{text}</span>
      </p>
      {files && files.length > 0 ? (
        <ul className="result-file-list" aria-label="Files of the upload">
          {files.slice(0, 20).map((file) => (
            <li key={file} className="mono">
              {file}
            </li>
          ))}
          {files.length > 20 ? <li className="muted">and {files.length - 20} more</li> : null}
        </ul>
      ) : inputId === null ? (
        <p className="muted">
          The server has not said yet which upload it sends: only its target is known.
        </p>
      ) : input.isError ? (
        <p className="muted">
          Its upload (artifact #{inputId}) could not be read: only its target is known.
        </p>
      ) : null}
      {inputId !== null ? (
        <OpenButton kind="artifact" id={inputId} className="link-button">
          Upload artifact <span className="mono">#{inputId}</span>
        </OpenButton>
      ) : null}
    </div>
  );
}
