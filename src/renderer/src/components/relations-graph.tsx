/** The relations of an artifact, drawn small (issue 9 builds it; the artifact page shows it). */
export function RelationsGraph(props: { artifactId: number }): React.JSX.Element {
  return <p className="muted">Relations of artifact {props.artifactId} are not shown yet.</p>;
}
