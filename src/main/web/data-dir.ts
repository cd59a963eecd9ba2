/** Where the web host keeps its data (profiles, tokens, watch lists, upload jobs). */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** DEBUSINE_DESKTOP_DATA_DIR, else $XDG_DATA_HOME/debusine-desktop, else ~/.local/share/…. */
export function dataDirFrom(env: NodeJS.ProcessEnv, home = homedir()): string {
  if (env.DEBUSINE_DESKTOP_DATA_DIR) return resolve(env.DEBUSINE_DESKTOP_DATA_DIR);
  // An empty XDG_DATA_HOME means unset (XDG Base Directory specification).
  const xdg =
    env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== ''
      ? env.XDG_DATA_HOME
      : join(home, '.local', 'share');
  return join(xdg, 'debusine-desktop');
}
