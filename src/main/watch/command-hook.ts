/**
 * The CLI's `on-completed COMMAND…`: runs a user command with the work request id and the
 * result appended as arguments. execFile, never a shell: an id or a result can never be
 * read as shell syntax. Runs are not awaited by the watcher, so a slow command cannot
 * stall notifications (the Python client's blocking run can drop its websocket).
 */
import { execFile } from 'node:child_process';
import { DebusineError } from '../../shared/errors';

export interface CommandHook {
  /** The program (absolute path or a name on PATH). */
  command: string;
  /** Arguments before the id and the result. */
  args?: readonly string[];
  cwd?: string;
  timeoutMs?: number;
}

export interface CommandRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export function runCommandHook(
  hook: CommandHook,
  workRequestId: number,
  result: string,
): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    execFile(
      hook.command,
      [...(hook.args ?? []), String(workRequestId), result],
      {
        cwd: hook.cwd,
        timeout: hook.timeoutMs ?? 60_000,
        maxBuffer: 1024 * 1024,
        windowsHide: true,
        shell: false,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(
            new DebusineError(
              'internal',
              `The completion command ${hook.command} could not run: ${error.message}`,
            ),
          );
          return;
        }
        resolve({ exitCode: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}
