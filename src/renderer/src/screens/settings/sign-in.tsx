import { ExternalLink, Globe, KeyRound, X, type LucideIcon } from 'lucide-react';
import { useId, useState } from 'react';
import type { EnrollStarted, ServerProfile } from '@shared/contract';
import { DebusineError } from '@shared/errors';
import { MutateButton } from '@renderer/components/mutate-button';
import { useBridge } from '@renderer/bridge';
import { useMainEvent } from '@renderer/queries/events';
import { useMutationOf } from '@renderer/queries/hooks';
import { serverMutations } from '@renderer/queries/servers';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import { SegmentedOptions } from './segmented-options';

type Method = 'enroll' | 'token';

const METHODS: readonly { id: Method; label: string; icon: LucideIcon }[] = [
  { id: 'enroll', label: 'Enroll with the web browser', icon: Globe },
  { id: 'token', label: 'Paste a token', icon: KeyRound },
];

/**
 * Signs in to a server: enrollment (the app shows a challenge, the user confirms it on the
 * server's web page, main receives the token) or a pasted token.
 */
export function SignInPanel(props: {
  server: ServerProfile;
  onDone: () => void;
}): React.JSX.Element {
  const [method, setMethod] = useState<Method>('enroll');
  const id = useId();
  return (
    <section className="sign-in" aria-labelledby={`${id}-title`} data-testid="sign-in-panel">
      <div className="section-head">
        <h3 id={`${id}-title`}>Sign in to {props.server.name}</h3>
        <button
          type="button"
          className="icon-button"
          aria-label="Close sign-in"
          onClick={props.onDone}
        >
          <X size={14} aria-hidden="true" />
        </button>
      </div>
      <div role="radiogroup" aria-label="How to sign in" className="segmented">
        <SegmentedOptions
          name={`${id}-method`}
          options={METHODS}
          value={method}
          onChange={setMethod}
        />
      </div>
      {method === 'enroll' ? (
        <Enroll server={props.server} onDone={props.onDone} />
      ) : (
        <PasteToken server={props.server} onDone={props.onDone} />
      )}
    </section>
  );
}

function Enroll(props: { server: ServerProfile; onDone: () => void }): React.JSX.Element {
  const bridge = useBridge();
  const [started, setStarted] = useState<EnrollStarted | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const start = useMutationOf(serverMutations.startEnrollment, {
    onSuccess: (s) => {
      setFailure(null);
      setStarted(s);
    },
  });

  useMainEvent(
    'enroll.finished',
    (event) => {
      if (event.enrollId !== started?.enrollId) return;
      setStarted(null);
      // A confirmed one signed in: queries/events.ts makes everything stale.
      if (event.outcome === 'confirm') {
        props.onDone();
      } else if (event.outcome === 'cancel') {
        setFailure(
          new DebusineError('cancelled', 'The enrollment was cancelled on the confirmation page.'),
        );
      } else {
        setFailure(
          event.error
            ? DebusineError.fromJSON(event.error)
            : new DebusineError('internal', 'The enrollment failed.'),
        );
      }
    },
    started !== null,
  );

  const cancel = (): void => {
    if (started) void bridge.enroll.cancel({ enrollId: started.enrollId }).catch(() => undefined);
    setStarted(null);
  };

  if (started) {
    return (
      <div className="enroll-waiting" data-testid="enroll-waiting">
        <p>Check that the server&apos;s confirmation page shows this phrase, then confirm there:</p>
        <p className="challenge mono" data-testid="enroll-challenge">
          {started.challenge}
        </p>
        {started.browserOpened ? (
          <p className="muted">The confirmation page was opened in your browser.</p>
        ) : (
          <p>
            <a
              href={started.confirmUrl}
              target="_blank"
              rel="noreferrer"
              className="button primary"
              data-testid="enroll-link"
            >
              <ExternalLink size={14} aria-hidden="true" />
              Open the confirmation page
            </a>{' '}
            <span className="mono muted confirm-url">{started.confirmUrl}</span>
          </p>
        )}
        <LoadingState label="Waiting for you to confirm on the server…" />
        <button type="button" className="button" onClick={cancel}>
          Cancel enrollment
        </button>
      </div>
    );
  }
  return (
    <div className="enroll-start">
      <p className="muted">
        The app asks {props.server.name} for a token; you confirm the request on its web page,
        signed in there as yourself. The token is stored on this computer, never shown.
      </p>
      {failure ? <ErrorState error={failure} /> : null}
      {start.isError ? <ErrorState error={start.error} /> : null}
      <MutateButton className="button primary" mutation={start} input={props.server.id}>
        {start.isPending ? 'Starting…' : 'Start enrollment'}
      </MutateButton>
    </div>
  );
}

function PasteToken(props: { server: ServerProfile; onDone: () => void }): React.JSX.Element {
  const id = useId();
  const [token, setToken] = useState('');
  const signIn = useMutationOf(serverMutations.signInWithToken, {
    onSuccess: () => {
      setToken('');
      props.onDone();
    },
  });
  const tooShort = token.trim().length > 0 && token.trim().length < 8;
  return (
    <form
      className="paste-token"
      onSubmit={(event) => {
        event.preventDefault();
        if (token.trim().length >= 8)
          signIn.mutate({ serverId: props.server.id, token: token.trim() });
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-token`}>Token</label>
        <input
          id={`${id}-token`}
          className="input mono"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          aria-invalid={tooShort ? true : undefined}
          aria-describedby={`${id}-token-hint`}
          onChange={(event) => {
            setToken(event.target.value);
          }}
        />
        <span id={`${id}-token-hint`} className={tooShort ? 'field-error' : 'field-hint'}>
          {tooShort
            ? 'A token is at least 8 characters.'
            : 'Create one on the server’s web page under your user’s tokens.'}
        </span>
      </div>
      {signIn.isError ? <ErrorState error={signIn.error} /> : null}
      <button
        type="submit"
        className="button primary"
        disabled={signIn.isPending || token.trim().length < 8}
      >
        {signIn.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
