import { FileCog, FlaskConical, Globe } from 'lucide-react';
import type { ServerPreset } from '@shared/contract';
import { MutateButton } from '@renderer/components/mutate-button';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { useAppQuery, useMutationOf } from '@renderer/queries/hooks';
import { serverMutations, serverQueries } from '@renderer/queries/servers';

const SOURCES: Record<ServerPreset['source'], { label: string; icon: typeof Globe }> = {
  'cli-config': { label: 'From the Debusine CLI config', icon: FileCog },
  sandbox: { label: 'Local sandbox', icon: FlaskConical },
  public: { label: 'Public server', icon: Globe },
};

/**
 * Suggested servers: those of the Debusine CLI's config.ini, a running local sandbox, and
 * debusine.debian.net. Ones already added are left out.
 */
export function PresetList(props: { firstStart: boolean }): React.JSX.Element | null {
  const presets = useAppQuery(serverQueries.presets);
  const add = useMutationOf(serverMutations.addPreset);
  if (presets.isError) {
    return props.firstStart ? (
      <ErrorState error={presets.error} onRetry={() => void presets.refetch()} />
    ) : null;
  }
  const fresh = (presets.data ?? []).filter((p) => p.existingServerId === null);
  const sandboxFound = (presets.data ?? []).some((p) => p.source === 'sandbox');
  const sandboxHint =
    props.firstStart && presets.isSuccess && !sandboxFound ? (
      <SandboxHint
        checking={presets.isFetching}
        onCheck={() => {
          void presets.refetch();
        }}
      />
    ) : null;
  if (fresh.length === 0) return sandboxHint;
  return (
    <div className="presets" aria-labelledby="presets-title">
      <h3 id="presets-title">Suggested servers</h3>
      {sandboxHint}
      <ul className="row-list preset-list">
        {fresh.map((preset) => {
          const source = SOURCES[preset.source];
          const Icon = source.icon;
          return (
            <li key={preset.presetId} className="preset" data-testid={`preset-${preset.source}`}>
              <Icon size={18} aria-hidden="true" className="preset-icon" />
              <div className="preset-text">
                <div>
                  <strong>{preset.name}</strong> <span className="muted">· {source.label}</span>
                </div>
                <div className="mono muted">
                  {preset.apiUrl}
                  {preset.scope ? ` · scope ${preset.scope}` : ''}
                </div>
              </div>
              <span className="preset-token muted">
                {preset.hasToken ? 'Token included' : 'Sign in after adding'}
              </span>
              <MutateButton className="button" mutation={add} input={preset.presetId}>
                Add {preset.name}
              </MutateButton>
            </li>
          );
        })}
      </ul>
      {add.isError ? <ErrorState error={add.error} /> : null}
    </div>
  );
}

/**
 * On a first start without a running sandbox: how to get a local Debusine to try the app on,
 * since a new user may have no account on any server yet.
 */
function SandboxHint(props: { checking: boolean; onCheck: () => void }): React.JSX.Element {
  return (
    <div className="sandbox-hint" data-testid="sandbox-hint">
      <FlaskConical size={18} aria-hidden="true" className="preset-icon" />
      <div className="preset-text">
        <div>
          <strong>No Debusine server yet?</strong> Run a local one: in the app&apos;s source folder,
          as root, run <code>npm run sandbox:up</code>. It installs Debusine from Debian&apos;s
          packages in a chroot (a few minutes the first time) with a user and a token ready, and it
          then appears here as &ldquo;Local sandbox&rdquo;.
        </div>
      </div>
      <button type="button" className="button" disabled={props.checking} onClick={props.onCheck}>
        {props.checking ? 'Looking…' : 'Look again'}
      </button>
    </div>
  );
}
