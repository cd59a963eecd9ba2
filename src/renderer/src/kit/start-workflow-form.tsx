/**
 * A "start workflow" form generated from a workflow template's runtime parameters (the
 * Templates area shows it, and the upload flow after an upload). The form itself lives with
 * the template editor and is loaded on first use, with the YAML editor it may need.
 */
import { lazy, Suspense } from 'react';
import { LoadingState } from '@renderer/components/loading-state';

export interface StartWorkflowFormProps {
  workspace: string;
  /** Values to prefill, e.g. `{source_artifact: 42}` after uploading artifact 42. */
  initialTaskData?: Record<string, unknown>;
  /** Called with the created workflow's work request id. */
  onStarted?: (workRequestId: number) => void;
  /** The template picked at first (its name); the first one otherwise. */
  initialTemplate?: string;
}

const Form = lazy(() => import('./start-workflow').then((m) => ({ default: m.StartWorkflow })));

export function StartWorkflowForm(props: StartWorkflowFormProps): React.JSX.Element {
  return (
    <Suspense fallback={<LoadingState label="Loading the workflow form…" />}>
      <Form {...props} />
    </Suspense>
  );
}
