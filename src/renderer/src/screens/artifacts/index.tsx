import { Boxes, Search } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { EmptyState } from '@renderer/components/empty-state';
import { artifactIdFrom, isAddress } from '@renderer/kit/artifact-id';
import { useIntent } from '@renderer/state/palette';
import { RequireServer } from '@renderer/kit/require-server';
import { ArtifactPage } from './artifact-page';
import { recentOn, useRecentArtifacts } from './recent-store';
import './artifacts.css';
import { useDetail, useOpen, useOpenAddress } from '@renderer/kit/navigation';
import { NO_SERVER } from '@renderer/queries/define';
import { useScope } from '@renderer/queries/hooks';

/** Look an artifact up by id or web URL, and show its page. */
export function ArtifactsScreen(): React.JSX.Element {
  return (
    <RequireServer what="Looking up artifacts">
      <Artifacts />
    </RequireServer>
  );
}

function Artifacts(): React.JSX.Element {
  const detail = useDetail();
  const { openArtifact } = useOpen();
  const opened = useRecentArtifacts((s) => s.opened);
  const remember = useRecentArtifacts((s) => s.remember);
  const scope = useScope() ?? NO_SERVER;
  const recent = recentOn(opened, scope);
  const artifactId = detail?.kind === 'artifact' ? detail.id : null;
  const server = detail?.server ?? null;

  useEffect(() => {
    if (artifactId !== null && server !== null) remember(server, artifactId);
  }, [artifactId, server, remember]);

  return (
    <div className="artifacts">
      <LookupBar onOpen={openArtifact} />
      {artifactId !== null && server !== null ? (
        <ArtifactPage key={artifactId} id={artifactId} server={server} />
      ) : (
        <EmptyState icon={Boxes} title="Open an artifact">
          <p>
            Type its id, or paste its web page address (…/artifact/<span className="mono">42</span>
            /). Artifacts you upload open here too.
          </p>
          {recent.length > 0 ? (
            <div className="recent">
              <span>Recently opened:</span>
              {recent.map((id) => (
                <button
                  key={id}
                  type="button"
                  className="button small mono"
                  onClick={() => {
                    openArtifact(id);
                  }}
                >
                  #{id}
                </button>
              ))}
            </div>
          ) : null}
        </EmptyState>
      )}
    </div>
  );
}

function LookupBar(props: { onOpen: (id: number) => void }): React.JSX.Element {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  useIntent('artifacts.lookup', () => {
    input.current?.focus();
    input.current?.select();
  });
  const openAddress = useOpenAddress();
  const submit = (event: React.SyntheticEvent): void => {
    event.preventDefault();
    if (isAddress(text)) {
      // An address names its server: it opens there, or says why it cannot.
      setError(null);
      openAddress(text).then(
        (refused) => {
          if (refused === null) setText('');
          else setError(refused);
        },
        (failure: unknown) => {
          setError(failure instanceof Error ? failure.message : String(failure));
        },
      );
      return;
    }
    const found = artifactIdFrom(text);
    if (found === null) {
      setError('Enter an artifact id (a number) or its web page URL, …/artifact/42/.');
      return;
    }
    setError(null);
    setText('');
    props.onOpen(found);
  };
  return (
    <form className="toolbar lookup" role="search" onSubmit={submit}>
      <label htmlFor={`${id}-q`} className="visually-hidden">
        Artifact id or URL
      </label>
      <div className="lookup-input">
        <Search size={14} aria-hidden="true" className="muted" />
        <input
          ref={input}
          id={`${id}-q`}
          className="input mono"
          placeholder="Artifact id or web URL"
          value={text}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-err` : undefined}
          onChange={(event) => {
            setText(event.target.value);
          }}
        />
      </div>
      <button type="submit" className="button">
        Open
      </button>
      {error ? (
        <span id={`${id}-err`} className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </form>
  );
}
