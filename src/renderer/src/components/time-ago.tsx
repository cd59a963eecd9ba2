import { formatDateTime, formatRelative } from './format';

/** A relative time with the exact one on hover and for screen readers. */
export function TimeAgo(props: { iso: string | null | undefined }): React.JSX.Element {
  if (!props.iso) return <span className="muted">—</span>;
  return (
    <time dateTime={props.iso} title={formatDateTime(props.iso)}>
      {formatRelative(props.iso)}
    </time>
  );
}
