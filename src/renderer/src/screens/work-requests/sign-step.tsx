import { PenLine } from 'lucide-react';
import { useId, useState } from 'react';
import type { SigningKey, SigningKeys, WorkRequestResponse } from '@shared/contract';
import { DebusineError } from '@shared/errors';
import { OpenButton } from '@renderer/kit/open-button';
import { MutateButton } from '@renderer/components/mutate-button';
import { CopyButton } from '@renderer/components/copy-button';
import { useAppQuery, useMutationOf, useScope } from '@renderer/queries/hooks';
import { workRequestMutations, workRequestQueries } from '@renderer/queries/work-requests';
import { cliCommand } from './model';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The artifact a failed signing left on the server (uploaded, but the step refused it). */
function artifactLeft(error: unknown): number | undefined {
  if (!(error instanceof DebusineError)) return undefined;
  const id = error.details.signedArtifactId;
  return typeof id === 'number' ? id : undefined;
}

function keyLabel(key: SigningKey): string {
  return `${key.userIds[0] ?? 'no user id'} · ${key.keyId}`;
}

/** What debsign's configuration says, when it names a key. */
function ConfiguredKey(props: { keys: SigningKeys | undefined }): React.JSX.Element | null {
  const configured = props.keys?.configured;
  if (!configured) return null;
  const key = props.keys?.keys.find((k) => k.fingerprint === configured.fingerprint);
  return key ? (
    <p className="muted">
      Signs with <span className="mono">{keyLabel(key)}</span>, named by DEBSIGN_KEYID in{' '}
      <span className="mono">{configured.file}</span>.
    </p>
  ) : (
    <p className="inline-error">
      DEBSIGN_KEYID in <span className="mono">{configured.file}</span> is{' '}
      <span className="mono">{configured.value}</span>, which names none of your secret keys (or
      several): correct it, or choose the key below.
    </p>
  );
}

/**
 * External signing: debsign here when main has it, otherwise the CLI's way. The key is the
 * one debsign would use (DEBSIGN_KEYID, else the uploader's, else the only one); with several
 * keys the user may pick one, and must when none of those rules names one.
 */
export function SignStep(props: { wr: WorkRequestResponse }): React.JSX.Element | null {
  const { wr } = props;
  const titleId = useId();
  const keyId = useId();
  const availability = useAppQuery(workRequestQueries.signingAvailable);
  const available = availability.data?.available === true;
  const keys = useAppQuery(workRequestQueries.signingKeys, { enabled: available });
  const scope = useScope();
  const [chosen, setChosen] = useState('');
  const unsigned = wr.task_data.unsigned;
  const sign = useMutationOf(workRequestMutations.sign);
  const command = cliCommand('sign', wr.id);
  const outcome = sign.data;
  const asked = outcome?.status === 'choose-key' ? outcome : undefined;
  const signed = outcome?.status === 'signed' ? outcome : undefined;
  const choices = asked?.keys ?? keys.data?.keys ?? [];
  const left = artifactLeft(sign.error);
  const waiting = wr.status === 'running';
  // Once the step no longer waits, what is left to show is this page's own signing.
  if (!waiting && !signed) return null;
  return (
    <section className="wr-callout" aria-labelledby={titleId} data-testid="waiting-step">
      <PenLine size={18} aria-hidden="true" className="tone-attention" />
      <div className="wr-callout-body">
        <h3 id={titleId}>{waiting ? 'This step waits for your signature' : 'Signed'}</h3>
        {waiting ? (
          <p className="muted">
            The upload
            {typeof unsigned === 'number' ? (
              <>
                {' '}
                (artifact <OpenButton kind="artifact" id={unsigned} className="link-button mono" />)
              </>
            ) : null}{' '}
            must be signed with your OpenPGP key (debsign), uploaded, and the step completed. Only
            the person who started the workflow can do it.
          </p>
        ) : null}
        {!waiting ? null : available ? (
          <>
            <ConfiguredKey keys={keys.data} />
            {keys.data?.problem ? <p className="inline-error">{keys.data.problem}</p> : null}
            {asked ? <p role="status">{asked.reason}</p> : null}
            {choices.length > 1 || asked ? (
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
                  <option value="" disabled={asked !== undefined}>
                    {asked ? 'Choose a key…' : 'The key debsign would use'}
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
              disabled={scope === undefined || (asked !== undefined && chosen === '')}
              input={{
                workRequestId: wr.id,
                serverId: scope ?? '',
                ...(chosen === '' ? {} : { key: chosen }),
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
          <p role="status">
            Signed with <span className="mono">{keyLabel(signed.key)}</span> ({signed.keyReason}):
            artifact{' '}
            <OpenButton kind="artifact" id={signed.signedArtifactId} className="link-button mono" />{' '}
            uploaded and the step completed.
          </p>
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
