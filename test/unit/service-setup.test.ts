import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedFromEnv } from '../../src/main/service/env-seed';
import { findPresets, publicPreset } from '../../src/main/service/presets';
import { ProfileStore } from '../../src/main/settings/profiles';
import { FileTokenStore } from '../../src/main/settings/token-store';
import { dataDirFrom } from '../../src/main/web/data-dir';
import { tempDirInEachTest } from '../support/temp-dirs';

let dir: string;
tempDirInEachTest('service-setup-', (made) => {
  dir = made;
});

describe('seeding from the environment', () => {
  it('creates a profile, stores the token and makes it active; a second run updates it', async () => {
    const profiles = new ProfileStore(dir);
    const tokens = new FileTokenStore(dir);
    const env = {
      DEBUSINE_DESKTOP_API_URL: 'http://127.0.0.1:18016/api/',
      DEBUSINE_DESKTOP_TOKEN: 'a-token-of-some-length',
      DEBUSINE_DESKTOP_SCOPE: 'debusine',
      DEBUSINE_DESKTOP_WORKSPACE: 'System',
    };
    const first = await seedFromEnv(profiles, tokens, env);
    expect(first).toMatchObject({
      apiUrl: 'http://127.0.0.1:18016/api',
      scope: 'debusine',
      defaultWorkspace: 'System',
    });
    expect((await profiles.active())?.id).toBe(first?.id);
    await expect(tokens.get(first?.id ?? '')).resolves.toMatchObject({
      token: 'a-token-of-some-length',
    });
    await seedFromEnv(profiles, tokens, {
      ...env,
      DEBUSINE_DESKTOP_WORKSPACE: 'Playground',
      DEBUSINE_DESKTOP_TOKEN: 'another-token-value',
    });
    const list = await profiles.list();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ defaultWorkspace: 'Playground' });
    await expect(tokens.get(first?.id ?? '')).resolves.toMatchObject({
      token: 'another-token-value',
    });
  });

  it('does nothing without a URL', async () => {
    await expect(
      seedFromEnv(new ProfileStore(dir), new FileTokenStore(dir), {}),
    ).resolves.toBeUndefined();
  });

  it('picks the web host data directory', () => {
    expect(dataDirFrom({ DEBUSINE_DESKTOP_DATA_DIR: '/x/y' })).toBe('/x/y');
    expect(dataDirFrom({ XDG_DATA_HOME: '/xdg' })).toBe('/xdg/debusine-desktop');
    expect(dataDirFrom({}, '/home/u')).toBe('/home/u/.local/share/debusine-desktop');
  });
});

describe('server presets', () => {
  it('offers the CLI servers, an answering sandbox and debusine.debian.net; tokens stay main-side', async () => {
    const ini = join(dir, 'config.ini');
    await writeFile(
      ini,
      '[General]\ndefault-server = work\n\n[server:work]\napi-url = https://debusine.example.org/api\nscope = example\ntoken = cli-token-value-123\n',
    );
    // Where test/debusine-server/sandbox.sh writes it: one folder per flavour.
    await mkdir(join(dir, 'current'), { recursive: true });
    await writeFile(
      join(dir, 'current', 'sandbox.json'),
      JSON.stringify({
        apiUrl: 'http://127.0.0.1:18016/api',
        scope: 'debusine',
        workspaces: { default: 'System' },
        users: { owner: { username: 'alice', token: 'sandbox-token-value' } },
      }),
    );
    const presets = await findPresets({
      env: { DEBUSINE_DESKTOP_CLI_CONFIG: ini, DEBUSINE_SANDBOX_HOME: dir },
      probe: () => Promise.resolve(true),
    });
    expect(presets.map((p) => [p.source, p.name, p.hasToken])).toEqual([
      ['cli-config', 'work', true],
      ['sandbox', 'Local sandbox (127.0.0.1:18016)', true],
      ['public', 'debusine.debian.net', false],
    ]);
    expect(presets[2]).toMatchObject({
      apiUrl: 'https://debusine.debian.net/api',
      scope: 'debian',
      defaultWorkspace: 'developers',
    });
    const visible = presets.map((p) => publicPreset(p, null));
    expect(JSON.stringify(visible)).not.toMatch(/token-value/);
  });

  it('leaves out a sandbox that does not answer', async () => {
    await mkdir(join(dir, 'current'), { recursive: true });
    await writeFile(
      join(dir, 'current', 'sandbox.json'),
      JSON.stringify({ apiUrl: 'http://127.0.0.1:9/api', scope: 'debusine' }),
    );
    const presets = await findPresets({
      env: { DEBUSINE_DESKTOP_CLI_CONFIG: join(dir, 'none.ini'), DEBUSINE_SANDBOX_HOME: dir },
      probe: () => Promise.resolve(false),
    });
    expect(presets.map((p) => p.source)).toEqual(['public']);
  });
});
