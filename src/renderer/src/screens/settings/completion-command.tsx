import type { NotificationSettings } from '@shared/contract';
import { MutateButton } from '@renderer/components/mutate-button';
import { useCapabilities } from '@renderer/queries/app';
import { useMutationOf } from '@renderer/queries/hooks';
import { notificationMutations } from '@renderer/queries/notifications';

/** How a command reads on screen; quotes mark arguments with spaces. No shell runs it. */
export function joinCommand(argv: readonly string[]): string {
  return argv.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ');
}

const EXAMPLE = '{"command": ["/usr/bin/notify-send", "Debusine"]}';

/**
 * The program run on completion. Nothing here can name one: a page that can reach the
 * bridge must not be able to make main run a program. On the desktop, main asks in its own
 * file dialog; in the browser the program is read from a file the user edits, shown here.
 */
export function CompletionCommand(props: { settings: NotificationSettings }): React.JSX.Element {
  const change = useMutationOf(notificationMutations.command);
  const { commandHook: hook, commandFile: file, commandProblem: problem } = props.settings;
  // Neither way is offered until the host has said which it has.
  const how = useCapabilities()?.completionCommand;
  return (
    <fieldset data-testid="completion-command">
      <legend>Run a program on completion</legend>
      <p className="ns-row" data-testid="completion-command-state">
        {hook === null ? (
          <span>No program runs when work completes.</span>
        ) : (
          <span>
            {hook.enabled ? 'Runs ' : 'Turned off: '}
            <code className="mono">{joinCommand(hook.command)}</code>
            {hook.enabled ? ' when work completes.' : ''}
          </span>
        )}
      </p>
      {problem !== null ? (
        <p className="inline-error" role="alert" data-testid="completion-command-problem">
          {problem}
        </p>
      ) : null}
      {how === 'dialog' ? (
        <div className="ns-row">
          <MutateButton className="button small" mutation={change} input="choose">
            {hook === null ? 'Choose a program…' : 'Choose another program…'}
          </MutateButton>
          {hook !== null ? (
            <MutateButton className="button small" mutation={change} input="remove">
              Stop running it
            </MutateButton>
          ) : null}
        </div>
      ) : how === 'file' ? (
        <p className="field-hint" data-testid="completion-command-file">
          To set or change it, edit the settings file <code className="mono">{file}</code>, for
          example <code className="mono">{EXAMPLE}</code> (add{' '}
          <code className="mono">&quot;enabled&quot;: false</code> to turn it off). The next
          completion reads it; the browser cannot change it.
        </p>
      ) : null}
      <p className="field-hint">
        Like <span className="mono">debusine work-request on-completed</span>: the work request id
        and its result are added as its last two arguments. It runs without a shell.
        {how === 'dialog' ? (
          <>
            {' '}
            Arguments of its own can be added in <code className="mono">{file}</code>.
          </>
        ) : null}
      </p>
      {change.isError ? (
        <p className="inline-error" role="alert">
          {change.error instanceof Error ? change.error.message : 'The program was not changed'}
        </p>
      ) : null}
    </fieldset>
  );
}
