/**
 * dput-ng's profiles as dput-ng merges them: DEFAULT under every profile, the user's file
 * over /etc's over the package's, a meta filling in what a file does not set, `+key` and
 * `-key` on lists; the profile for a server found by its fqdn and scope; and the workflow
 * dput-ng's Debusine hook would start for a Distribution.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseWorkflow, DputProfiles } from '../../src/main/dput/profiles';

function layers(files: Record<string, unknown>): string[] {
  const root = mkdtempSync(join(tmpdir(), 'ddt-dput-'));
  const dirs = ['usr-share', 'etc', 'home'].map((d) => join(root, d));
  for (const [path, value] of Object.entries(files)) {
    const [layer, ...rest] = path.split('/');
    const file = join(root, layer ?? '', ...rest);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return dirs;
}

const PACKAGE_PROFILE = {
  debusine_scope: 'debian',
  debusine_workflows_by_distribution: {
    sid: 'upload-to-unstable',
    '*': 'upload-to-{distribution}',
  },
  debusine_workflow_data: { source_artifact: '@UPLOAD@' },
  debusine_workspace: 'developers',
  fqdn: 'debusine.debian.net',
  meta: 'debusine',
  method: 'debusine',
};

/** The package's profile as a sandbox's: for the server at `fqdn`, in its scope. */
const sandboxProfile = (fqdn: string) => ({
  ...PACKAGE_PROFILE,
  fqdn,
  debusine_scope: 'debusine',
});

describe('dput-ng profiles', () => {
  it('merges DEFAULT, the package, /etc and the user, in that order, with the meta under each', async () => {
    const dirs = layers({
      'usr-share/profiles/debusine.debian.net.json': PACKAGE_PROFILE,
      'usr-share/metas/debusine.json': { hooks: ['debusine-check-workflow'], codenames: 'debian' },
      'etc/profiles/DEFAULT.json': { method: 'ftp', passive_ftp: true, hooks: ['gpg'] },
      'etc/profiles/debusine.debian.net.json': { debusine_workspace: 'etc-workspace' },
      'home/profiles/debusine.debian.net.json': {
        debusine_workspace: 'mine',
        '+hooks': ['lintian'],
      },
    });
    const profile = await new DputProfiles(dirs).profile('debusine.debian.net');
    expect(profile?.fields).toMatchObject({
      method: 'debusine',
      debusine_workspace: 'mine',
      debusine_scope: 'debian',
      // From DEFAULT, which no file of the profile overrides.
      passive_ftp: true,
      // From the built-in profile, which the package's file does not override.
      allow_unsigned_uploads: true,
      codenames: 'debian',
    });
    expect(new Set(profile?.fields.hooks as string[])).toEqual(
      new Set(['debusine-check-workflow', 'lintian']),
    );
    expect(profile?.files).toEqual([
      'built in',
      join(dirs[0] ?? '', 'profiles/debusine.debian.net.json'),
      join(dirs[1] ?? '', 'profiles/debusine.debian.net.json'),
      join(dirs[2] ?? '', 'profiles/debusine.debian.net.json'),
    ]);
  });

  it('knows debusine.debian.net without the debusine-client package', async () => {
    const profiles = new DputProfiles(layers({}));
    const found = await profiles.forServer('https://debusine.debian.net/api', 'debian');
    expect(found?.files).toEqual(['built in']);
    expect(found && chooseWorkflow(found, 'unstable')).toEqual({
      template: 'upload-to-unstable',
      workspace: 'developers',
      data: { source_artifact: '@UPLOAD@' },
    });
    // Another scope on that host is another target: dput's profile does not name it.
    expect(await profiles.forServer('https://debusine.debian.net/api', 'other')).toBeNull();
  });

  it('finds a server’s profile by its host name, as the Debusine client does, whatever the profile is called', async () => {
    const byName = layers({
      'home/profiles/debusine-sandbox.json': sandboxProfile('127.0.0.1'),
    });
    const found = await new DputProfiles(byName).forServer(
      'http://127.0.0.1:18016/api',
      'debusine',
    );
    expect(found?.name).toBe('debusine-sandbox');
  });

  it('takes a host and port as fqdn too', async () => {
    const dirs = layers({
      'home/profiles/sandbox.json': sandboxProfile('127.0.0.1:18016'),
      'home/profiles/other.json': { ...PACKAGE_PROFILE, fqdn: 'elsewhere.example' },
    });
    const found = await new DputProfiles(dirs).forServer('http://127.0.0.1:18016/api', 'debusine');
    expect(found?.name).toBe('sandbox');
    expect(await new DputProfiles(dirs).forServer('http://127.0.0.1:9/api', 'debusine')).toBeNull();
  });

  it('chooses the workflow as the hook does: debusine_workflow, the Distribution, then *', () => {
    const profile = { name: 'p', files: [], fields: { ...PACKAGE_PROFILE } };
    expect(chooseWorkflow(profile, 'unstable')).toMatchObject({ template: 'upload-to-unstable' });
    expect(chooseWorkflow(profile, 'experimental')).toMatchObject({
      template: 'upload-to-experimental',
    });
    const fixed = { ...profile, fields: { ...PACKAGE_PROFILE, debusine_workflow: 'mine' } };
    expect(chooseWorkflow(fixed, 'unstable')).toMatchObject({ template: 'mine' });
    const noStar = {
      ...profile,
      fields: { ...PACKAGE_PROFILE, debusine_workflows_by_distribution: { sid: 'x' } },
    };
    expect(chooseWorkflow(noStar, 'bookworm')).toEqual({
      problem:
        'No Debusine workflow is configured for the distribution "bookworm" in the dput-ng profile p',
    });
  });

  it('names a file that is not a profile, and reads the others', async () => {
    const dirs = layers({
      'etc/profiles/broken.json': '{"fqdn": ',
      'etc/profiles/list.json': '[1, 2]',
      'home/profiles/huge.json': `{"x": "${'a'.repeat(300 * 1024)}"}`,
      'home/profiles/good.json': { ...PACKAGE_PROFILE, fqdn: 'good.example' },
    });
    const profiles = new DputProfiles(dirs);
    expect(await profiles.forServer('https://none.example/api', 'debian')).toBeNull();
    expect((await profiles.forServer('https://good.example/api', 'debian'))?.name).toBe('good');
    const problems = profiles.problems.map(
      (p) => `${p.file.slice(p.file.indexOf('/profiles/'))} ${p.message}`,
    );
    expect(problems).toContainEqual(expect.stringMatching(/^\/profiles\/broken\.json is not JSON/));
    expect(problems).toContain('/profiles/list.json is not a JSON object');
    expect(problems).toContainEqual(expect.stringMatching(/^\/profiles\/huge\.json is \d+ bytes/));
  });

  it('ends on a meta chain that loops (a → b → a), names the loop, and keeps what it read', async () => {
    const dirs = layers({
      'home/profiles/looping.json': { ...PACKAGE_PROFILE, fqdn: 'loop.example', meta: 'a' },
      'home/metas/a.json': { meta: 'b', from_a: 1 },
      'home/metas/b.json': { meta: 'a', from_b: 2 },
    });
    const profiles = new DputProfiles(dirs);
    const profile = await profiles.forServer('https://loop.example/api', 'debian');
    expect(profile?.fields).toMatchObject({ from_a: 1, from_b: 2, fqdn: 'loop.example' });
    expect(profiles.problems.map((p) => p.message)).toContain('its meta "a" loops: a → b → a');
  });

  it('passes over a FIFO named like a profile, which an open for reading would wait on for ever', async () => {
    const dirs = layers({
      'home/profiles/good.json': { ...PACKAGE_PROFILE, fqdn: 'good.example' },
    });
    execFileSync('mkfifo', [join(dirs[2] ?? '', 'profiles', 'fifo.json')]);
    const profiles = new DputProfiles(dirs);
    expect((await profiles.forServer('https://good.example/api', 'debian'))?.name).toBe('good');
    expect(await profiles.profile('fifo')).toBeNull();
  });
});
