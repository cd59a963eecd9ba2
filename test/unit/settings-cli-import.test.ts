import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseIni, readCliConfig } from '../../src/main/settings/cli-config';
import { importCliConfig } from '../../src/main/settings/cli-import';
import { ProfileStore } from '../../src/main/settings/profiles';
import { FileTokenStore } from '../../src/main/settings/token-store';
import { tempDirInEachTest } from '../support/temp-dirs';

const TOKEN_A = 'a'.repeat(64);
const TOKEN_B = 'b'.repeat(64);
const CONFIG = `# written by debusine setup
[General]
default-server = debian

[server:localhost]
api-url = http://localhost:8000/api/
scope = debusine
token = ${TOKEN_A}

[server:debian]
api-url: https://debusine.debian.net/api
scope = debian
token = ${TOKEN_B}
default-workspace = developers
`;

describe('the Debusine CLI config.ini', () => {
  let dir: string;
  let file: string;
  tempDirInEachTest('cli-import-', (made) => {
    dir = made;
    file = join(dir, 'config.ini');
  });

  it('reads sections, keys with = or :, and the default server', async () => {
    await writeFile(file, CONFIG);
    const config = await readCliConfig(file);
    expect(config.defaultServer).toBe('debian');
    expect(config.servers.map((s) => [s.name, s.apiUrl, s.scope, s.defaultWorkspace])).toEqual([
      ['localhost', 'http://localhost:8000/api/', 'debusine', undefined],
      ['debian', 'https://debusine.debian.net/api', 'debian', 'developers'],
    ]);
  });

  it('follows configparser: dotted section names, DEFAULT, %% and continuation lines', () => {
    const doc = parseIni(
      '[DEFAULT]\nscope = debusine\n[server:debusine.example.org]\napi-url = https://x/api\nnote = 100%% sure\n  second line\nref = %(scope)s/x\n',
      'f.ini',
    );
    const section = doc.sections.get('server:debusine.example.org');
    expect(section?.get('scope')?.value).toBe('debusine');
    expect(section?.get('note')?.value).toBe('100% sure\nsecond line');
    expect(section?.get('ref')?.value).toBe('debusine/x');
  });

  it.each([
    ['key = value\n[General]\n', 1, /before any \[section\]/],
    ['[General]\ndefault-server = a\n[General]\n', 3, /appears twice/],
    ['[server:a]\nscope = x\nscope = y\n', 3, /set twice/],
    [`[server:a]\n${TOKEN_A}\n`, 2, /expected "key = value"/],
    ['[server:a\nscope = x\n', 1, /section header/],
    ['[server:a]\ntoken = 50%off\n', 2, /lone "%"/],
  ])('refuses a malformed file with the file and line: %#', async (text, line, message) => {
    await writeFile(file, text);
    const error = await readCliConfig(file).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'validation', details: { file, line } });
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(`${file}, line ${String(line)}`);
    // The token on a malformed line is never repeated.
    expect((error as Error).message).not.toContain(TOKEN_A);
  });

  it('imports the servers with their tokens, and activates the default server', async () => {
    await writeFile(file, CONFIG);
    const profiles = new ProfileStore(join(dir, 'data'));
    const tokens = new FileTokenStore(join(dir, 'data'));
    const result = await importCliConfig({ profiles, tokens, path: file });
    expect(result.imported.map((i) => i.name)).toEqual(['localhost', 'debian']);
    expect(result.activated).toBe('debian');
    const debian = await profiles.get('debian');
    expect(debian).toMatchObject({
      apiUrl: 'https://debusine.debian.net/api',
      scope: 'debian',
      defaultWorkspace: 'developers',
      origin: 'cli-import',
    });
    expect((await tokens.get('debian'))?.token).toBe(TOKEN_B);
    // No token in the profile file; the token file is the user's only.
    expect(await readFile(profiles.path, 'utf8')).not.toContain(TOKEN_B);
    expect((await stat(tokens.path)).mode & 0o777).toBe(0o600);
  });

  it('never overwrites the file, existing profiles or stored tokens', async () => {
    await writeFile(file, CONFIG);
    const profiles = new ProfileStore(join(dir, 'data'));
    const tokens = new FileTokenStore(join(dir, 'data'));
    const mine = await profiles.add({
      name: 'debian',
      apiUrl: 'https://debusine.debian.net/api/',
      scope: 'debian',
      defaultWorkspace: 'mine',
    });
    await tokens.set(mine.id, 'c'.repeat(64), mine.apiUrl);
    const result = await importCliConfig({ profiles, tokens, path: file });
    expect(result.skipped.map((s) => s.name)).toEqual(['debian']);
    expect(await profiles.get(mine.id)).toEqual(mine);
    expect((await tokens.get(mine.id))?.token).toBe('c'.repeat(64));
    expect((await profiles.load()).active).toBe(mine.id);
    expect(await readFile(file, 'utf8')).toBe(CONFIG);
  });

  it('imports nothing from a malformed file', async () => {
    const text = `${CONFIG}\n[server:broken]\nno delimiter here\n`;
    await writeFile(file, text);
    const profiles = new ProfileStore(join(dir, 'data'));
    const tokens = new FileTokenStore(join(dir, 'data'));
    await expect(importCliConfig({ profiles, tokens, path: file })).rejects.toMatchObject({
      code: 'validation',
      details: { line: text.split('\n').indexOf('no delimiter here') + 1 },
    });
    expect(await profiles.list()).toEqual([]);
  });

  it('reports sections it cannot use, and a missing file clearly', async () => {
    await writeFile(file, '[General]\ndefault-server = gone\n[server:x]\nscope = s\n');
    const result = await importCliConfig({
      profiles: new ProfileStore(join(dir, 'data')),
      tokens: new FileTokenStore(join(dir, 'data')),
      path: file,
    });
    expect(result.imported).toEqual([]);
    expect(result.skipped.map((s) => s.reason).join('\n')).toMatch(/missing api-url[\s\S]*gone/);
    await expect(readCliConfig(join(dir, 'nope.ini'))).rejects.toMatchObject({
      code: 'not-found',
    });
  });
});
