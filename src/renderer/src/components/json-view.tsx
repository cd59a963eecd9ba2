/** Readable JSON (task data, artifact data): monospace, wrapped, selectable. */
export function JsonView(props: { value: unknown; label: string }): React.JSX.Element {
  return (
    <pre className="json-view" aria-label={props.label} tabIndex={0}>
      {JSON.stringify(props.value, null, 2)}
    </pre>
  );
}
