import { PenLine } from 'lucide-react';
import { useId, useState } from 'react';
import type { SigningKey, SigningKeyChoice, WorkRequestResponse } from '@shared/contract';
import { DebusineError } from '@shared/errors';
import { visibleText } from '@shared/visible-text';
import { OpenButton } from '@renderer/kit/open-button';
import { MutateButton } from '@renderer/components/mutate-button';
import { CopyButton } from '@renderer/components/copy-button';
import { useAppQuery, useMutationOf, useScope, useServerQuery } from '@renderer/queries/hooks';
import { workRequestMutations, workRequestQueries } from '@renderer/queries/work-requests';
import { cliCommand } from './model';
import { UploadReview } from './upload-review';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The artifact a failed signing left on the server (uploaded, but the step refused it). */
function artifactLeft(error: unknown): number | undefined {
  if (!(error instanceof DebusineError)) return undefined;
  const id = error.details.signedArtifactId;
  return typeof id === 'number' ? id : undefined;
}

/**
 * Text shown as it is, at most `max` characters: main bounds what it quotes from the
 * server, and this keeps the page's own share bounded whatever it gets.
 */
function bounded(text: string, max: number): string {
  const visible = visibleText(text);
  return visible.length > max ? `${visible.slice(0, max - 1)}…` : visible;
}

function userIdOf(key: SigningKey): string {
  return bounded(key.userIds[0] ?? 'no user id', 200);
}

function keyLabel(key: SigningKey): string {
  return `${userIdOf(key)} · ${key.keyId}`;
}

/** As gpg shows one: groups of four hex digits. */
function groupedFingerprint(fingerprint: string): string {
  return fingerprint.replace(/(.{4})(?!$)/g, '$1 ');
}

/** The one key debsign's rules name, or undefined where they name none or several. */
function debsignKeyOf(choice: SigningKeyChoice | undefined): SigningKey | undefined {
  const [only, ...more] = choice?.named ?? [];
  return more.length === 0 ? only : undefined;
}

/**
 * Which key debsign would use and why (main's choice, made by the code that signs), or that
 * its rules name none, or several, and which address or key id they looked for, and where
 * it came from.
 */
function DebsignKey(props: {
  choice: SigningKeyChoice | undefined;
  error: Error | null;
  pending: boolean;
}): React.JSX.Element | null {
  const { choice } = props;
  if (props.error) {
    return (
      <p className="inline-error">
        Cannot tell which key debsign would use: {bounded(errorText(props.error), 1000)}
      </p>
    );
  }
  if (!choice) {
    return props.pending ? <p className="muted">Looking for the key debsign would use…</p> : null;
  }
  const key = debsignKeyOf(choice);
  const reason = bounded(choice.reason, 1000);
  if (!key) {
    return (
      <p className="inline-error" data-testid="debsign-key">
        <strong>
          {choice.named.length === 0
            ? 'No key to sign with by default.'
            : 'Several keys match: choose one.'}
        </strong>{' '}
        {reason}
      </p>
    );
  }
  return (
    <dl className="props" data-testid="debsign-key">
      <dt>debsign would use</dt>
      <dd>{userIdOf(key)}</dd>
      <dt>Fingerprint</dt>
      <dd className="mono">{groupedFingerprint(key.fingerprint)}</dd>
      <dt>Why</dt>
      <dd>{reason}</dd>
    </dl>
  );
}

/**
 * External signing: debsign here when main has it, otherwise the CLI's way. The page shows
 * the key debsign would use, as main chooses it for signing (DEBSIGN_KEYID, else the
 * uploader's key), and why; the user may pick another key, and must where those rules
 * name none or several. What is signed without a pick is the key shown: main stops if its
 * choice changed meanwhile.
 */
export function SignStep(props: { wr: WorkRequestResponse }): React.JSX.Element | null {
  const { wr } = props;
  const titleId = useId();
  const keyId = useId();
  const waiting = wr.status === 'running';
  const availability = useAppQuery(workRequestQueries.signingAvailable);
  const available = availability.data?.available === true;
  const choice = useServerQuery((scope) => workRequestQueries.signingKeyChoice(scope, wr.id), {
    enabled: available && waiting,
  });
  const scope = useScope();
  const [chosen, setChosen] = useState('');
  // The digest of the review whose box was ticked: another review needs its own tick.
  const [confirmedDigest, setConfirmedDigest] = useState<string | null>(null);
  // An answer other than "signed" may be about keys or devscripts files changed since the
  // choice was read: read it again, so that what the page shows is main's choice now.
  const sign = useMutationOf(workRequestMutations.sign, {
    onSuccess: (result) => {
      if (result.status !== 'signed') void choice.refetch();
    },
    onError: () => {
      void choice.refetch();
    },
  });
  const command = cliCommand('sign', wr.id);
  const outcome = sign.data;
  const asked = outcome?.status === 'choose-key' ? outcome : undefined;
  const refused = outcome?.status === 'review' ? outcome : undefined;
  // Main's answer to signing is newer than the page's read of the review.
  const review = refused?.review ?? choice.data?.review;
  const confirmed = confirmedDigest !== null && confirmedDigest === review?.digest;
  const mayConfirm = review !== undefined && (review.verdict === 'same' || confirmed);
  const signed = outcome?.status === 'signed' ? outcome : undefined;
  const debsignKey = asked ? undefined : debsignKeyOf(choice.data);
  const choices = asked?.keys ?? choice.data?.keys ?? [];
  const left = artifactLeft(sign.error);
  // Once the step no longer waits, what is left to show is this page's own signing.
  if (!waiting && !signed) return null;
  return (
    <section className="wr-callout" aria-labelledby={titleId} data-testid="waiting-step">
      <PenLine size={18} aria-hidden="true" className="tone-attention" />
      <div className="wr-callout-body">
        <h3 id={titleId}>{waiting ? 'This step waits for your signature' : 'Signed'}</h3>
        {waiting ? (
          <p className="muted">
            The upload must be signed with your OpenPGP key (debsign), uploaded, and the step
            completed. Only the person who started the workflow can do it.
          </p>
        ) : null}
        {waiting && available && review ? (
          <UploadReview
            review={review}
            confirmed={confirmed}
            onConfirmedChange={(checked) => {
              setConfirmedDigest(checked ? review.digest : null);
            }}
          />
        ) : null}
        {!waiting ? null : available ? (
          <>
            <DebsignKey choice={choice.data} error={choice.error} pending={choice.isPending} />
            {asked ? <p role="status">{bounded(asked.reason, 1000)}</p> : null}
            {refused ? (
              <p className="inline-error" role="alert">
                {bounded(refused.reason, 1000)}
              </p>
            ) : null}
            {choices.length > 1 || (choices.length > 0 && !debsignKey) ? (
              <div className="field">
                <label htmlFor={keyId}>Key</label>
                <select
                  id={keyId}
                  className="select mono"
                  value={chosen}
                  onChange={(e) => {
                    setChosen(e.target.value);
                  }}
                >
                  <option value="" disabled={!debsignKey}>
                    {debsignKey
                      ? `The key debsign would use (${keyLabel(debsignKey)})`
                      : 'Choose a key…'}
                  </option>
                  {choices.map((key) => (
                    <option key={key.fingerprint} value={key.fingerprint}>
                      {keyLabel(key)}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
            <MutateButton
              className="button primary"
              mutation={sign}
              // Without a pick, only the key shown signs: none shown, nothing to sign with.
              // Nor without the review read, and confirmed where it is not the user's upload.
              disabled={scope === undefined || (chosen === '' && !debsignKey) || !mayConfirm}
              input={{
                workRequestId: wr.id,
                serverId: scope ?? '',
                ...(review ? { reviewed: review.digest } : {}),
                ...(chosen !== ''
                  ? { key: chosen }
                  : debsignKey
                    ? { expected: debsignKey.fingerprint }
                    : {}),
              }}
            >
              <PenLine size={14} aria-hidden="true" />
              {sign.isPending
                ? 'Signing… (gpg-agent may ask for your passphrase)'
                : 'Sign and upload'}
            </MutateButton>
          </>
        ) : availability.isPending ? null : (
          <>
            <p>
              {availability.data?.message ??
                'debsign is not available on this computer, so Debusine Desktop cannot sign here.'}{' '}
              On a computer with devscripts and your key, run:
            </p>
            <div className="wr-code">
              <code>{command}</code>
              <CopyButton text={command} label="Copy" />
            </div>
            <p className="muted">
              It downloads the .changes, .dsc and .buildinfo, runs{' '}
              <span className="mono">debsign --re-sign</span>, uploads the signed files and
              completes this step. This page updates when it does.
            </p>
          </>
        )}
        {signed ? (
          <>
            <p role="status">
              Signed with <span className="mono">{keyLabel(signed.key)}</span> (fingerprint{' '}
              <span className="mono">{groupedFingerprint(signed.key.fingerprint)}</span>): artifact{' '}
              <OpenButton
                kind="artifact"
                id={signed.signedArtifactId}
                className="link-button mono"
              />{' '}
              uploaded and the step completed.
            </p>
            <p className="muted">{bounded(signed.keyReason, 1000)}</p>
          </>
        ) : null}
        {sign.error ? (
          <p className="inline-error" role="alert">
            {errorText(sign.error)}
            {left !== undefined ? (
              <>
                {' '}
                <OpenButton kind="artifact" id={left} className="link-button mono" />
              </>
            ) : null}
          </p>
        ) : null}
      </div>
    </section>
  );
}
