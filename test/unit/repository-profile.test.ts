/**
 * The dput-ng profile the app writes for a repository, read back the way dput-ng reads it
 * (DputProfiles, chooseWorkflow): the upload goes to the repository's workspace and starts
 * publish-to-<suite>; the server's own profile stays the server's; a file the app did not
 * write is never replaced, and a name that is not a plain file name is refused.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseWorkflow, DputProfiles } from '../../src/main/dput/profiles';
import {
  REPOSITORY_MARKER,
  repositoryProfileName,
  writeRepositoryProfile,
} from '../../src/main/dput/repository-profile';

const SERVER_PROFILE = {
  allow_unsigned_uploads: true,
  debusine_scope: 'debusine',
  debusine_workflows_by_distribution: {
    sid: 'upload-to-unstable',
    '*': 'upload-to-{distribution}',
  },
  debusine_workflow_data: { source_artifact: '@UPLOAD@' },
  debusine_workspace: 'developers',
  fqdn: '127.0.0.1',
  incoming: '/',
  meta: 'debusine',
  method: 'debusine',
};

function dirs(): { system: string; user: string } {
  const system = mkdtempSync(join(tmpdir(), 'ddt-dput-system-'));
  mkdirSync(join(system, 'profiles'));
  writeFileSync(join(system, 'profiles', 'debusine-sandbox.json'), JSON.stringify(SERVER_PROFILE));
  return { system, user: mkdtempSync(join(tmpdir(), 'ddt-dput-user-')) };
}

describe('a repository’s dput-ng profile', () => {
  it('publishes to the suite the Distribution names, in the repository', async () => {
    const { system, user } = dirs();
    const written = await writeRepositoryProfile({
      dir: user,
      server: SERVER_PROFILE,
      host: '127.0.0.1',
      scope: 'debusine',
      workspace: 'developers-alice-ppa',
      suites: ['sid', 'trixie-backports'],
    });
    expect(written.name).toBe('127.0.0.1-developers-alice-ppa');
    expect(written.file).toBe(join(user, 'profiles', `${written.name}.json`));
    const profiles = new DputProfiles([system, user]);
    const profile = await profiles.profile(written.name);
    expect(profile).not.toBeNull();
    if (!profile) return;
    expect(profile.fields).toMatchObject({
      method: 'debusine',
      fqdn: '127.0.0.1',
      debusine_scope: 'debusine',
      debusine_workspace: 'developers-alice-ppa',
      debusine_workflow_data: { source_artifact: '@UPLOAD@' },
    });
    expect(chooseWorkflow(profile, 'sid')).toMatchObject({
      template: 'publish-to-sid',
      workspace: 'developers-alice-ppa',
    });
    expect(chooseWorkflow(profile, 'trixie-backports')).toMatchObject({
      template: 'publish-to-trixie-backports',
    });
    // Two suites: a Distribution that names neither is refused, as dput-ng refuses it.
    expect(chooseWorkflow(profile, 'unstable')).toHaveProperty('problem');
    // The server's profile is still the one the app proposes for the server's uploads.
    expect((await profiles.forServer('http://127.0.0.1:18016/api', 'debusine'))?.name).toBe(
      'debusine-sandbox',
    );
  });

  it('publishes any Distribution to the only suite of a repository of one', async () => {
    const { user } = dirs();
    const written = await writeRepositoryProfile({
      dir: user,
      server: null,
      host: 'debusine.example.org',
      scope: 'debian',
      workspace: 'developers-bob-tools',
      suites: ['sid'],
    });
    const profile = await new DputProfiles([user]).profile(written.name);
    if (!profile) throw new Error('not read back');
    expect(chooseWorkflow(profile, 'unstable')).toMatchObject({ template: 'publish-to-sid' });
    expect(profile.fields).toMatchObject({ fqdn: 'debusine.example.org', method: 'debusine' });
    // With no profile of the server's, none is proposed for the server: this one is not it.
    expect(
      await new DputProfiles([user]).forServer('https://debusine.example.org/api', 'debian'),
    ).toBeNull();
  });

  it('never replaces a profile the app did not write, and updates its own', async () => {
    const { user } = dirs();
    const request = {
      dir: user,
      server: SERVER_PROFILE,
      host: '127.0.0.1',
      scope: 'debusine',
      workspace: 'developers-alice-ppa',
      suites: ['sid'],
    };
    const file = join(user, 'profiles', '127.0.0.1-developers-alice-ppa.json');
    mkdirSync(join(user, 'profiles'), { recursive: true });
    const mine = '{"method": "ftp", "fqdn": "example.org"}\n';
    writeFileSync(file, mine);
    await expect(writeRepositoryProfile(request)).rejects.toMatchObject({
      code: 'conflict',
      details: { file },
    });
    expect(readFileSync(file, 'utf8')).toBe(mine);
    // One of the app's for another workspace under that name is not this one's either.
    writeFileSync(file, JSON.stringify({ [REPOSITORY_MARKER]: 'developers-alice-other' }));
    await expect(writeRepositoryProfile(request)).rejects.toMatchObject({ code: 'conflict' });
    writeFileSync(file, 'not json at all');
    await expect(writeRepositoryProfile(request)).rejects.toMatchObject({ code: 'conflict' });
    expect(readFileSync(file, 'utf8')).toBe('not json at all');

    writeFileSync(file, JSON.stringify({ [REPOSITORY_MARKER]: 'developers-alice-ppa' }));
    await writeRepositoryProfile({ ...request, suites: ['sid', 'experimental'] });
    const fields = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(fields.debusine_workflows_by_distribution).toEqual({
      sid: 'publish-to-sid',
      experimental: 'publish-to-experimental',
    });
    // Written whole, in place: no temporary file left beside it.
    expect(readdirSync(join(user, 'profiles'))).toEqual(['127.0.0.1-developers-alice-ppa.json']);
  });

  it('refuses names that are not plain file names, writing nothing', async () => {
    const { user } = dirs();
    for (const workspace of ['../../etc/x', 'a/b', 'ws\nname', '.hidden', 'x..y', '']) {
      expect(() => repositoryProfileName('127.0.0.1', workspace)).toThrow(/profile name/);
      await expect(
        writeRepositoryProfile({
          dir: user,
          server: null,
          host: '127.0.0.1',
          scope: 's',
          workspace,
          suites: ['sid'],
        }),
      ).rejects.toMatchObject({ code: 'validation' });
    }
    expect(readdirSync(user)).toEqual([]);
  });
});
