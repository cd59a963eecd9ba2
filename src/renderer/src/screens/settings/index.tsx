import { useState } from 'react';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import { useAppQuery } from '@renderer/queries/hooks';
import { serverQueries } from '@renderer/queries/servers';
import { useIntent } from '@renderer/state/palette';
import { AddServerForm } from './add-server';
import { AppearanceSection } from './appearance';
import { NotificationSettingsSection } from './notifications';
import { PresetList } from './presets';
import { ServerTable } from './server-table';
import { SignInPanel } from './sign-in';
import { TokenStoreNote } from './token-store';
import { UploadSettingsSection } from './uploads';
import './settings.css';

/** Servers and sign-in, appearance, and notification settings. */
export function SettingsScreen(): React.JSX.Element {
  const servers = useAppQuery(serverQueries.list);
  const [adding, setAdding] = useState(false);
  const [signInFor, setSignInFor] = useState<string | null>(null);
  useIntent('settings.add-server', () => {
    setAdding(true);
  });

  const list = servers.data ?? [];
  const firstStart = servers.isSuccess && list.length === 0;
  const signInServer = list.find((s) => s.id === signInFor) ?? null;

  return (
    <div className="settings">
      <section className="settings-section" aria-labelledby="settings-servers">
        <div className="section-head">
          <h2 id="settings-servers">Servers</h2>
          {!firstStart && !adding ? (
            <button
              type="button"
              className="button"
              onClick={() => {
                setAdding(true);
              }}
            >
              Add server…
            </button>
          ) : null}
        </div>
        {servers.isPending ? <LoadingState label="Loading servers…" /> : null}
        {servers.isError ? (
          <ErrorState error={servers.error} onRetry={() => void servers.refetch()} />
        ) : null}
        {firstStart ? (
          <p className="settings-intro">
            Welcome. Pick a server to start with, or add one by its API URL. You sign in by
            enrolling through the server&apos;s web page, or by pasting a token.
          </p>
        ) : null}
        {servers.isSuccess && list.length > 0 ? (
          <ServerTable
            servers={list}
            signInFor={signInFor}
            onSignIn={(id) => {
              setSignInFor(id);
            }}
          />
        ) : null}
        {signInServer ? (
          <SignInPanel
            server={signInServer}
            onDone={() => {
              setSignInFor(null);
            }}
          />
        ) : null}
        {servers.isSuccess ? <PresetList firstStart={firstStart} /> : null}
        {firstStart || adding ? (
          <AddServerForm
            firstStart={firstStart}
            onCancel={
              firstStart
                ? undefined
                : () => {
                    setAdding(false);
                  }
            }
            onAdded={(profile) => {
              setAdding(false);
              if (!profile.hasToken) setSignInFor(profile.id);
            }}
          />
        ) : null}
        <TokenStoreNote />
      </section>
      <AppearanceSection />
      <UploadSettingsSection />
      <section className="settings-section" aria-label="Notifications">
        <NotificationSettingsSection />
      </section>
    </div>
  );
}
