/**
 * The program run on each completion, kept in `{dataDir}/completion-command.json`, apart
 * from the notification settings the bridge may change. Whoever can name that program can
 * run anything as the user on the next completion, so the bridge never writes it: main
 * does, with the program the user picked in main's own file dialog (Electron); in the web
 * host nothing writes it and the user edits the file by hand.
 *
 * The file is read again at each completion, so an edit applies without a restart. It is
 * refused when another user could have written it.
 */
import { constants } from 'node:fs';
import { access, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeJsonFile } from '../json-file';
import type { CommandHook } from '../watch/command-hook';
import { DebusineError } from '../../shared/errors';

export const COMMAND_FILE = 'completion-command.json';

const fileSchema = z.strictObject({
  /** The program (an absolute path, or a name on PATH), then any arguments of its own. */
  command: z.array(z.string().min(1)).min(1),
  enabled: z.boolean().default(true),
});

export interface CommandState {
  hook: { enabled: boolean; command: string[] } | null;
  /** What is wrong with the file, naming it and the line or field; null when nothing is. */
  problem: string | null;
}

export class CompletionCommandFile {
  readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, COMMAND_FILE);
  }

  /** The command as configured; a file that is wrong configures none, and says why. */
  async read(): Promise<CommandState> {
    let text: string;
    try {
      const info = await stat(this.path);
      const unsafe = unsafeOwnership(info);
      if (unsafe) return { hook: null, problem: `${this.path} ${unsafe}` };
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { hook: null, problem: null };
      return { hook: null, problem: `${this.path} cannot be read: ${(error as Error).message}` };
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      return { hook: null, problem: `${this.path}: ${jsonProblem(text, error)}` };
    }
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue && issue.path.length > 0 ? `"${issue.path.join('.')}": ` : '';
      return {
        hook: null,
        problem: `${this.path}: ${field}${issue?.message ?? 'not a command'} (expected {"command": ["/path/to/program", "optional argument"], "enabled": true})`,
      };
    }
    return { hook: { enabled: parsed.data.enabled, command: parsed.data.command }, problem: null };
  }

  /** What to run now: undefined when none is set, it is turned off, or the file is wrong. */
  async current(): Promise<CommandHook | undefined> {
    const { hook } = await this.read();
    const [command, ...args] = hook?.enabled ? hook.command : [];
    return command === undefined ? undefined : { command, args };
  }

  /**
   * Main only, with a path from its own file dialog: runs that program, with no arguments
   * of its own, on each completion.
   */
  async choose(program: string): Promise<void> {
    try {
      await access(program, constants.X_OK);
    } catch {
      throw new DebusineError('validation', `${program} is not a program this user can run`, {
        file: program,
      });
    }
    await writeJsonFile(this.path, { command: [program], enabled: true }, 0o600);
  }

  async remove(): Promise<void> {
    await rm(this.path, { force: true });
  }
}

/** Why another user could have written the file, or null (POSIX only: Windows has ACLs). */
function unsafeOwnership(info: { uid: number; mode: number }): string | null {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return null;
  if (info.uid !== process.getuid()) {
    return 'belongs to another user: it is not used (it must be yours)';
  }
  if ((info.mode & 0o022) !== 0) {
    return 'can be written by other users: it is not used (run chmod go-w on it)';
  }
  return null;
}

/** JSON.parse's complaint, with the line and column where V8 names a position. */
function jsonProblem(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position === undefined) return `not valid JSON (${message})`;
  const before = text.slice(0, Number(position)).split('\n');
  const line = before.length;
  const column = (before[before.length - 1]?.length ?? 0) + 1;
  return `not valid JSON at line ${String(line)}, column ${String(column)} (${message})`;
}
