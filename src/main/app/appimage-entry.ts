/**
 * `debusine-desktop:` links for the AppImage. On Linux, app.setAsDefaultProtocolClient
 * runs `xdg-settings set default-url-scheme-handler <scheme> <desktop entry>` with the
 * entry named by package.json's desktopName, and xdg-settings only succeeds when that
 * entry is installed. The .deb installs it in /usr/share/applications; an AppImage
 * installs nothing, so on its first run (and after it was moved) the app writes the entry
 * for itself in the user's applications folder, pointing at the AppImage file, before
 * asking to handle the scheme.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DESKTOP_ENTRY } from './identity';

/** Marks an entry this app wrote, so that it only ever replaces its own. */
const MARK = 'X-Debusine-Desktop-AppImage=true';

/** A path as one argument of a desktop entry's Exec key, or null when it cannot be one. */
export function execArgument(path: string): string | null {
  if (/[\n\r\0]/.test(path)) return null;
  // The Exec key's quoting (`"`, `` ` ``, `$` and `\` escaped), then the string escaping
  // every value gets (`\` doubled).
  const quoted = `"${path.replace(/["`$\\]/g, '\\$&')}"`;
  return quoted.replace(/\\/g, '\\\\');
}

export function appImageEntry(appImage: string, scheme: string): string | null {
  const exec = execArgument(appImage);
  if (exec === null) return null;
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Debusine Desktop',
    'Comment=Desktop client for Debusine',
    `Exec=${exec} %U`,
    'Terminal=false',
    'Categories=Development;',
    `MimeType=x-scheme-handler/${scheme};`,
    `StartupWMClass=${DESKTOP_ENTRY.replace(/\.desktop$/, '')}`,
    MARK,
    '',
  ].join('\n');
}

/** Where the user's own desktop entries go (the XDG base directory rules). */
export function userApplicationsDir(env: NodeJS.ProcessEnv): string {
  const dataHome = env.XDG_DATA_HOME?.startsWith('/')
    ? env.XDG_DATA_HOME
    : join(homedir(), '.local', 'share');
  return join(dataHome, 'applications');
}

/**
 * Writes the AppImage's entry when the app runs as one (the AppImage runtime sets
 * APPIMAGE to the file's path), unless an entry of that name that this app did not write
 * is there. Returns what it did, for the log.
 */
export async function installAppImageEntry(
  env: NodeJS.ProcessEnv,
  scheme: string,
): Promise<'not-an-appimage' | 'written' | 'up-to-date' | 'not-ours' | 'unusable-path'> {
  const appImage = env.APPIMAGE;
  if (!appImage?.startsWith('/')) return 'not-an-appimage';
  const entry = appImageEntry(appImage, scheme);
  if (entry === null) return 'unusable-path';
  const dir = userApplicationsDir(env);
  const file = join(dir, DESKTOP_ENTRY);
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing === entry) return 'up-to-date';
  if (existing !== null && !existing.includes(MARK)) return 'not-ours';
  await mkdir(dir, { recursive: true });
  const temporary = `${file}.${String(process.pid)}.tmp`;
  await writeFile(temporary, entry, { mode: 0o644 });
  await rename(temporary, file);
  return 'written';
}
