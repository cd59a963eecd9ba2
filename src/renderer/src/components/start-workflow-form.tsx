/**
 * A "start workflow" form generated from a workflow template's runtime parameters (issue 9
 * builds it; the upload flow of issue 7 shows it after an upload). Until then it says so.
 */
export interface StartWorkflowFormProps {
  workspace: string;
  /** Values to prefill, e.g. `{source_artifact: 42}` after uploading artifact 42. */
  initialTaskData?: Record<string, unknown>;
  /** Called with the created workflow's work request id. */
  onStarted?: (workRequestId: number) => void;
}

export function StartWorkflowForm(props: StartWorkflowFormProps): React.JSX.Element {
  return (
    <p className="muted">
      Starting a workflow from here is not available yet (workspace {props.workspace}).
    </p>
  );
}
