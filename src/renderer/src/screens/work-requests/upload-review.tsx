import { CircleCheck, TriangleAlert } from 'lucide-react';
import { useId } from 'react';
import type { SigningReview, SigningReviewFile } from '@shared/contract';
import { visibleText } from '@shared/visible-text';
import { CheckField } from '@renderer/components/check-field';
import { OpenButton } from '@renderer/kit/open-button';

const STATE_TEXT: Record<SigningReviewFile['state'], string> = {
  same: 'Same as yours',
  changed: 'Different contents',
  'not-in-your-upload': 'Not in your upload',
  'not-in-this-upload': 'Listed, not held',
  unknown: 'Not compared',
};

/** Main bounds what it sends; this keeps the page's share bounded whatever it gets. */
function bounded(text: string, max = 300): string {
  const visible = visibleText(text);
  return visible.length > max ? `${visible.slice(0, max - 1)}…` : visible;
}

function shortSha(sha256: string | null): string {
  return sha256 === null ? '—' : `${sha256.slice(0, 16)}…`;
}

/**
 * What "Sign and upload" would sign: the upload the step names (the artifact signed),
 * compared with the upload the user made from this machine, field by field and file by
 * file, and the exact .changes. Where it is not the user's own upload as made, nothing
 * signs until the box saying it was read is ticked (`confirmed`), for this review only.
 */
export function UploadReview(props: {
  review: SigningReview;
  confirmed: boolean;
  onConfirmedChange: (confirmed: boolean) => void;
}): React.JSX.Element {
  const { review } = props;
  const changesId = useId();
  const same = review.verdict === 'same';
  return (
    <div className="sign-review" data-testid="upload-review" data-verdict={review.verdict}>
      <p
        className={same ? 'sign-review-verdict tone-success' : 'sign-review-verdict tone-attention'}
      >
        {same ? (
          <CircleCheck size={15} aria-hidden="true" />
        ) : (
          <TriangleAlert size={15} aria-hidden="true" />
        )}
        <span>
          <strong>{bounded(review.summary, 600)}</strong> Upload to sign: artifact{' '}
          <OpenButton kind="artifact" id={review.artifactId} className="link-button mono" /> in{' '}
          {bounded(review.workspace, 100)}.
        </span>
      </p>
      {review.differences.length > 0 ? (
        <ul className="sign-review-differences" aria-label="What differs">
          {review.differences.slice(0, 200).map((line, i) => (
            <li key={i}>{bounded(line, 400)}</li>
          ))}
        </ul>
      ) : null}
      <table className="table compact sign-review-table" aria-label="Fields of the upload to sign">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">This upload</th>
            <th scope="col">Your upload</th>
          </tr>
        </thead>
        <tbody>
          {review.fields.map((f) => (
            <tr key={f.name} className={f.differs ? 'sign-review-differs' : undefined}>
              <th scope="row">{f.name}</th>
              <td className="mono">{bounded(f.value)}</td>
              <td className="mono">{f.made === null ? '—' : bounded(f.made)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="table compact sign-review-table" aria-label="Files of the upload to sign">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Listed by</th>
            <th scope="col">SHA-256</th>
            <th scope="col">Against your upload</th>
          </tr>
        </thead>
        <tbody>
          {review.files.map((f) => (
            <tr
              key={f.name}
              className={
                f.state === 'same' || f.state === 'unknown' ? undefined : 'sign-review-differs'
              }
            >
              <td className="mono">{bounded(f.name)}</td>
              <td>{f.listedBy.join(', ')}</td>
              <td className="mono" title={f.sha256 ?? undefined}>
                {shortSha(f.sha256)}
              </td>
              <td title={f.made !== null && f.made !== f.sha256 ? `Yours: ${f.made}` : undefined}>
                {STATE_TEXT[f.state]}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <details className="sign-review-changes">
        <summary id={changesId}>
          Read the .changes that would be signed ({bounded(review.changes.name, 200)})
        </summary>
        <pre className="wr-pre" aria-labelledby={changesId} tabIndex={0}>
          {review.changes.text}
        </pre>
        {review.changes.truncated ? (
          <p className="muted">Only its first 256 KiB are shown.</p>
        ) : null}
      </details>
      {same ? null : (
        <CheckField
          className="check-field"
          checked={props.confirmed}
          onCheckedChange={props.onConfirmedChange}
          data-testid="review-confirm"
        >
          {review.verdict === 'not-made-here'
            ? 'I have read its fields and files, and I want my key to sign this upload'
            : 'I have read what differs, and I want my key to sign this upload'}
        </CheckField>
      )}
    </div>
  );
}
