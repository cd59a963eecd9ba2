/**
 * The desktop entry an AppImage writes for itself names an icon that outlives the AppImage's
 * mount: a copy in the user's data folder, named by its absolute path.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appImageEntry,
  installAppImageEntry,
  userIconFile,
} from '../../src/main/app/appimage-entry';

let root: string;
let env: NodeJS.ProcessEnv;
/** Stands for the AppImage's mount, which goes away when the app exits. */
let mount: string;
let iconSource: string;
const entryFile = (): string => join(root, 'data', 'applications', 'debusine-desktop.desktop');

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'appimage-entry-'));
  mount = join(root, 'mount');
  await mkdir(join(mount, 'resources'), { recursive: true });
  iconSource = join(mount, 'resources', 'icon.png');
  await writeFile(iconSource, 'first icon');
  env = { APPIMAGE: join(root, 'Debusine.AppImage'), XDG_DATA_HOME: join(root, 'data') };
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the AppImage’s icon', () => {
  it('is copied out of the AppImage, and the entry names the copy by its absolute path', async () => {
    expect(await installAppImageEntry(env, 'debusine-desktop', iconSource)).toBe('written');
    const copy = userIconFile(env);
    expect(copy).toBe(join(root, 'data', 'icons', 'debusine-desktop.png'));
    expect(await readFile(entryFile(), 'utf8')).toContain(`\nIcon=${copy}\n`);
    // The mount goes when the app exits; the icon the entry names stays.
    await rm(mount, { recursive: true });
    expect(await readFile(copy, 'utf8')).toBe('first icon');
  });

  it('is copied again when a newer AppImage brings another, and left alone otherwise', async () => {
    await installAppImageEntry(env, 'debusine-desktop', iconSource);
    expect(await installAppImageEntry(env, 'debusine-desktop', iconSource)).toBe('up-to-date');
    await writeFile(iconSource, 'second icon');
    expect(await installAppImageEntry(env, 'debusine-desktop', iconSource)).toBe('up-to-date');
    expect(await readFile(userIconFile(env), 'utf8')).toBe('second icon');
  });

  it('is left out of the entry when there is none to copy, and the entry is still written', async () => {
    await rm(iconSource);
    expect(await installAppImageEntry(env, 'debusine-desktop', iconSource)).toBe('written');
    const entry = await readFile(entryFile(), 'utf8');
    expect(entry).not.toContain('Icon=');
    expect(entry).toContain('MimeType=x-scheme-handler/debusine-desktop;');
  });

  it('is neither copied nor named when the entry there is not the app’s', async () => {
    await mkdir(join(root, 'data', 'applications'), { recursive: true });
    await writeFile(entryFile(), '[Desktop Entry]\nName=Someone else’s\n');
    expect(await installAppImageEntry(env, 'debusine-desktop', iconSource)).toBe('not-ours');
    expect(await readFile(entryFile(), 'utf8')).toBe('[Desktop Entry]\nName=Someone else’s\n');
    await expect(readFile(userIconFile(env))).rejects.toThrow();
  });

  it('is a string value in the entry: a backslash doubled, a line break refused', () => {
    expect(appImageEntry('/a.AppImage', 'x', '/home/u\\v/icon.png')).toContain(
      '\nIcon=/home/u\\\\v/icon.png\n',
    );
    const entry = appImageEntry('/a.AppImage', 'x', '/home/u\nExec=evil/icon.png');
    expect(entry).not.toContain('Icon=');
    expect(entry).not.toContain('Exec=evil');
  });
});
