/**
 * `debusine-desktop:` links for the AppImage. On Linux, app.setAsDefaultProtocolClient
 * runs `xdg-settings set default-url-scheme-handler <scheme> <desktop entry>` with the
 * entry named by package.json's desktopName, and xdg-settings only succeeds when that
 * entry is installed. The .deb installs it in /usr/share/applications; an AppImage
 * installs nothing, so on its first run (and after it was moved) the app writes the entry
 * for itself in the user's applications folder, pointing at the AppImage file, before
 * asking to handle the scheme.
 *
 * The entry also names the app's icon, or desktops show a generic one. The icon inside the
 * AppImage is no use there: the image is mounted under a temporary path only while the app
 * runs. So the app copies its icon out, into the user's icons folder, and the entry names
 * that copy by its absolute path (a name would be looked up in icon themes, where a copy of
 * one size may or may not be found).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
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

/** A path as an Icon value (a string: `\` doubled), or null when it cannot be one. */
function iconValue(path: string): string | null {
  if (/[\n\r\0]/.test(path)) return null;
  return path.replace(/\\/g, '\\\\');
}

/** The AppImage's entry; `icon` is the absolute path of the copied icon, if there is one. */
export function appImageEntry(
  appImage: string,
  scheme: string,
  icon: string | null,
): string | null {
  const exec = execArgument(appImage);
  if (exec === null) return null;
  const iconLine = icon === null ? null : iconValue(icon);
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Debusine Desktop',
    'Comment=Desktop client for Debusine',
    `Exec=${exec} %U`,
    ...(iconLine === null ? [] : [`Icon=${iconLine}`]),
    'Terminal=false',
    'Categories=Development;',
    `MimeType=x-scheme-handler/${scheme};`,
    `StartupWMClass=${DESKTOP_ENTRY.replace(/\.desktop$/, '')}`,
    MARK,
    '',
  ].join('\n');
}

/** The user's data folder (the XDG base directory rules). */
function dataHome(env: NodeJS.ProcessEnv): string {
  return env.XDG_DATA_HOME?.startsWith('/')
    ? env.XDG_DATA_HOME
    : join(homedir(), '.local', 'share');
}

/** Where the user's own desktop entries go. */
export function userApplicationsDir(env: NodeJS.ProcessEnv): string {
  return join(dataHome(env), 'applications');
}

/**
 * Where the AppImage's icon is copied to: the user's icons folder, which icon lookups also
 * search for icons outside any theme, under the name the .deb's entry uses for its icon.
 */
export function userIconFile(env: NodeJS.ProcessEnv): string {
  return join(dataHome(env), 'icons', `${DESKTOP_ENTRY.replace(/\.desktop$/, '')}.png`);
}

/** Writes a file whole or not at all: a desktop reading it never sees half of it. */
async function replaceFile(file: string, content: string | Buffer): Promise<void> {
  const temporary = `${file}.${String(process.pid)}.tmp`;
  await writeFile(temporary, content, { mode: 0o644 });
  await rename(temporary, file);
}

/**
 * Copies the icon out of the AppImage, unless the copy there is the same already (a newer
 * AppImage may bring another). Returns the copy's path, or null when there is none.
 */
async function copyIcon(source: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const icon = await readFile(source).catch(() => null);
  if (icon === null) return null;
  const file = userIconFile(env);
  const existing = await readFile(file).catch(() => null);
  if (existing?.equals(icon)) return file;
  try {
    await mkdir(dirname(file), { recursive: true });
    await replaceFile(file, icon);
    return file;
  } catch {
    // No icon is better than no entry: the desktop shows its generic one.
    return null;
  }
}

/**
 * Writes the AppImage's entry when the app runs as one (the AppImage runtime sets
 * APPIMAGE to the file's path), unless an entry of that name that this app did not write
 * is there, with `iconSource` (the icon inside the AppImage) copied out for it. Returns
 * what it did, for the log.
 */
export async function installAppImageEntry(
  env: NodeJS.ProcessEnv,
  scheme: string,
  iconSource: string,
): Promise<'not-an-appimage' | 'written' | 'up-to-date' | 'not-ours' | 'unusable-path'> {
  const appImage = env.APPIMAGE;
  if (!appImage?.startsWith('/')) return 'not-an-appimage';
  if (appImageEntry(appImage, scheme, null) === null) return 'unusable-path';
  const dir = userApplicationsDir(env);
  const file = join(dir, DESKTOP_ENTRY);
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing !== null && !existing.includes(MARK)) return 'not-ours';
  const entry = appImageEntry(appImage, scheme, await copyIcon(iconSource, env));
  if (entry === null) return 'unusable-path';
  if (existing === entry) return 'up-to-date';
  await mkdir(dir, { recursive: true });
  await replaceFile(file, entry);
  return 'written';
}
