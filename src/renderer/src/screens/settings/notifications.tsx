import { CheckField } from '@renderer/components/check-field';
import { BellOff, BellRing } from 'lucide-react';
import { useId, useState } from 'react';
import type { NotificationSettings, RequestArgs } from '@shared/contract';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { formatDateTime } from '@renderer/components/format';
import { LoadingState } from '@renderer/components/loading-state';
import { useCapabilities } from '@renderer/queries/app';
import { useAppQuery } from '@renderer/queries/hooks';
import { notificationQueries, useSaveNotificationSettings } from '@renderer/queries/notifications';
import { CompletionCommand } from './completion-command';
import { PagePermissionRow } from './page-permission';

type Patch = NonNullable<RequestArgs<'notifications.setSettings'>>;

const MODES: { id: NotificationSettings['mode']; label: string; hint: string }[] = [
  {
    id: 'watched',
    label: 'Watched work only',
    hint: 'What you watch, and what you start from this app.',
  },
  {
    id: 'mine',
    label: 'Everything I start',
    hint: 'Also work you start with the CLI or the web UI.',
  },
  {
    id: 'workspace',
    label: 'Everything in workspaces',
    hint: 'All work in the workspaces listed below.',
  },
];

const SNOOZES: { label: string; until: () => Date }[] = [
  { label: '1 hour', until: () => new Date(Date.now() + 3_600_000) },
  { label: '4 hours', until: () => new Date(Date.now() + 4 * 3_600_000) },
  {
    label: 'Until tomorrow 9:00',
    until: () => {
      const d = new Date();
      d.setDate(d.getDate() + 1);
      d.setHours(9, 0, 0, 0);
      return d;
    },
  },
];

function inFuture(iso: string): boolean {
  return new Date(iso).getTime() > Date.now();
}

/** Settings for what notifies: rendered inside the Settings screen. */
export function NotificationSettingsSection(): React.JSX.Element {
  const query = useAppQuery(notificationQueries.settings);
  const save = useSaveNotificationSettings();
  if (query.isPending) return <LoadingState label="Loading notification settings…" />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <section className="ns-section" aria-labelledby="ns-title" data-testid="notification-settings">
      <h2 id="ns-title">Notifications</h2>
      <Form settings={query.data} save={save.mutate} saving={save.isPending} />
      <p className="ns-saved" role="status" aria-live="polite">
        {save.isError ? (
          <span className="inline-error">
            {save.error instanceof Error ? save.error.message : 'Saving failed'}
          </span>
        ) : save.isSuccess ? (
          <span className="muted">Saved.</span>
        ) : null}
      </p>
    </section>
  );
}

function Form(props: {
  settings: NotificationSettings;
  save: (patch: Patch) => void;
  saving: boolean;
}): React.JSX.Element {
  // The form shows a choice the moment it is made (a controlled input must not wait for the
  // round trip); what main answers replaces it when it arrives.
  const [settings, setLocal] = useState(props.settings);
  const [seen, setSeen] = useState(props.settings);
  if (seen !== props.settings) {
    setSeen(props.settings);
    setLocal(props.settings);
  }
  const save = (patch: Patch): void => {
    setLocal((current) => ({ ...current, ...patch }));
    props.save(patch);
  };
  const id = useId();
  const [workspaces, setWorkspaces] = useState(props.settings.workspaces.join(', '));
  const snoozed = settings.snoozedUntil !== null && inFuture(settings.snoozedUntil);
  // In a browser, the browser shows the notifications, once the user has allowed it.
  const inBrowser = useCapabilities()?.notifications === 'browser';
  return (
    <>
      {inBrowser ? <PagePermissionRow /> : null}
      <fieldset>
        <legend>What notifies</legend>
        {MODES.map((mode) => (
          <label key={mode.id} className="ns-option">
            <input
              type="radio"
              name={`${id}-mode`}
              value={mode.id}
              checked={settings.mode === mode.id}
              onChange={() => {
                save({ mode: mode.id });
              }}
            />
            <span>
              {mode.label}
              <br />
              <span className="field-hint">{mode.hint}</span>
            </span>
          </label>
        ))}
        <div className="field" style={{ marginLeft: 22 }}>
          <label htmlFor={`${id}-ws`}>Workspaces</label>
          <div className="ns-row" style={{ marginBottom: 0 }}>
            <input
              id={`${id}-ws`}
              className="input"
              style={{ width: 320 }}
              placeholder="developers, sandbox (empty: all)"
              value={workspaces}
              disabled={settings.mode !== 'workspace'}
              aria-describedby={`${id}-ws-hint`}
              onChange={(e) => {
                setWorkspaces(e.target.value);
              }}
            />
            <button
              type="button"
              className="button small"
              disabled={settings.mode !== 'workspace' || props.saving}
              onClick={() => {
                save({
                  workspaces: workspaces
                    .split(',')
                    .map((w) => w.trim())
                    .filter(Boolean),
                });
              }}
            >
              Save workspaces
            </button>
          </div>
          <span id={`${id}-ws-hint`} className="field-hint">
            Comma-separated workspace names; used with “Everything in workspaces”.
          </span>
        </div>
        <CheckField
          className="ns-option"
          checked={settings.failuresOnly}
          onCheckedChange={(failuresOnly) => {
            save({ failuresOnly });
          }}
        >
          <span>
            Failures only
            <br />
            <span className="field-hint">
              Notify only for failure, error and temporary failure; successes stay quiet.
            </span>
          </span>
        </CheckField>
        <p className="field-hint" data-testid="burst-hint">
          When many finish at once (after a night offline, say), the first three notify and the rest
          arrive as one summary. Every one is listed under Work requests › Notifications.
        </p>
      </fieldset>

      <fieldset>
        <legend>Do not disturb</legend>
        <div className="ns-row" data-testid="snooze-state">
          {snoozed ? (
            <>
              <BellOff size={15} aria-hidden="true" className="tone-attention" />
              <span>
                Snoozed until {formatDateTime(settings.snoozedUntil)}. Completions are still listed
                in the app.
              </span>
              <button
                type="button"
                className="button small"
                onClick={() => {
                  save({ snoozedUntil: null });
                }}
              >
                Resume notifications
              </button>
            </>
          ) : (
            <>
              <BellRing size={15} aria-hidden="true" className="tone-success" />
              <span>Notifications are on.</span>
            </>
          )}
        </div>
        <div className="ns-row">
          <span className="muted">Snooze for</span>
          {SNOOZES.map((s) => (
            <button
              key={s.label}
              type="button"
              className="button small"
              onClick={() => {
                save({ snoozedUntil: s.until().toISOString() });
              }}
            >
              {s.label}
            </button>
          ))}
        </div>
      </fieldset>

      <CompletionCommand settings={props.settings} />
    </>
  );
}
