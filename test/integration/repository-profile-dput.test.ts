/**
 * The dput-ng profile the app writes for a repository, read by dput-ng itself: in the current
 * sandbox's chroot, as alice, dput-ng's own `load_profile` and its Debusine hook's
 * `choose_workflow` pick the workspace and the workflow for each Distribution, and the app's
 * reading of the same file (DputProfiles, chooseWorkflow) must pick the same; `dput -s`
 * accepts the profile and runs its hooks on a real source upload, or refuses it for the same
 * reason the app gives. No server is asked: dput-ng's simulation uploads nothing.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseWorkflow, DputProfiles } from '../../src/main/dput/profiles';
import { writeRepositoryProfile } from '../../src/main/dput/repository-profile';
import { chownToAlice } from '../support/dput-ng';
import { realPackages } from '../support/real-packages';
import { hasServer, testServer } from '../support/sandbox';

const server = hasServer('current') ? testServer('current') : null;
const developers = server?.sandbox && server.root ? server.developers : null;

/** dput-ng's own choice, through its own modules, for each Distribution. */
const CHOOSE = `
import json, sys
from dput.profile import load_profile
from debusine.client.dput_ng.hooks import NoWorkflowError, choose_workflow
profile = load_profile(sys.argv[1])
out = {}
for distribution in sys.argv[2:]:
    try:
        workflow = choose_workflow({"Distribution": distribution}, profile)
    except NoWorkflowError as e:
        workflow = None
    out[distribution] = {
        "workspace": profile.get("debusine_workspace"),
        "scope": profile.get("debusine_scope"),
        "fqdn": profile.get("fqdn"),
        "data": profile.get("debusine_workflow_data"),
        "workflow": workflow,
    }
print(json.dumps(out))
`;

describe.runIf(developers !== null)('a repository’s dput-ng profile, read by dput-ng', () => {
  const root = server?.root ?? '/nonexistent';
  const system = developers?.dputProfiles ?? '';
  const home = join(root, 'home/alice');
  const userDir = join(home, '.dput.d');
  const work = mkdtempSync(join(root, 'tmp/ddt-dput-profile-'));
  const inChroot = (path: string) => `/${path.slice(root.length).replace(/^\/+/, '')}`;
  const written: string[] = [];
  afterAll(() => {
    for (const file of written) rmSync(file, { force: true });
    rmSync(work, { recursive: true, force: true });
  });

  function asAlice(args: string[]) {
    return spawnSync(
      'chroot',
      [
        '--userspec=alice:alice',
        root,
        ...['env', '-i', 'PATH=/usr/bin:/bin', 'HOME=/home/alice', 'LANG=C.UTF-8'],
        ...args,
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
  }

  async function writeFor(workspace: string, suites: string[]) {
    const serverProfile = await new DputProfiles([system]).profile(developers?.dputHost ?? '');
    if (!serverProfile) throw new Error('the sandbox has no dput-ng profile');
    mkdirSync(userDir, { recursive: true });
    const made = await writeRepositoryProfile({
      dir: userDir,
      server: serverProfile.fields,
      host: '127.0.0.1',
      scope: server?.scope ?? '',
      workspace,
      suites,
    });
    written.push(made.file);
    chownToAlice(root, '/home/alice/.dput.d');
    return made;
  }

  const DISTRIBUTIONS = ['sid', 'unstable', 'trixie-backports', 'experimental'];

  it.each([
    { suites: ['sid'], label: 'one suite' },
    { suites: ['sid', 'trixie-backports'], label: 'two suites' },
  ])(
    'picks the workspace and the workflow dput-ng picks, for each Distribution ($label)',
    async ({ suites }) => {
      const workspace = `developers-dput-${String(suites.length)}`;
      const made = await writeFor(workspace, suites);
      const chosen = asAlice(['python3', '-c', CHOOSE, made.name, ...DISTRIBUTIONS]);
      expect(chosen.status, chosen.stderr).toBe(0);
      const theirs = JSON.parse(chosen.stdout) as Record<
        string,
        { workspace: string; scope: string; fqdn: string; data: object; workflow: string | null }
      >;
      // The app reads the same directories dput-ng reads, the user's last.
      const profile = await new DputProfiles([system, userDir]).profile(made.name);
      expect(profile).not.toBeNull();
      if (!profile) return;
      for (const distribution of DISTRIBUTIONS) {
        const dput = theirs[distribution];
        const ours = chooseWorkflow(profile, distribution);
        expect(dput?.workspace).toBe(workspace);
        expect([dput?.scope, dput?.fqdn]).toEqual([server?.scope, '127.0.0.1']);
        if ('problem' in ours) {
          expect(dput?.workflow, distribution).toBeNull();
        } else {
          expect([dput?.workflow, dput?.workspace, dput?.data], distribution).toEqual([
            ours.template,
            ours.workspace,
            ours.data,
          ]);
        }
      }
      // One suite takes every Distribution; two take only their own.
      expect(theirs.unstable?.workflow).toBe(suites.length === 1 ? 'publish-to-sid' : null);
      expect(theirs['trixie-backports']?.workflow).toBe(
        suites.length === 1 ? 'publish-to-sid' : 'publish-to-trixie-backports',
      );
    },
  );

  it('is accepted by dput -s for a real source upload, or refused for the app’s reason', async () => {
    const pkg = realPackages().good;
    for (const file of [pkg.changes, pkg.dsc, pkg.tarball]) {
      cpSync(file, join(work, basename(file)));
    }
    chownToAlice(root, inChroot(work));
    const changes = `${inChroot(work)}/${basename(pkg.changes)}`;

    // One suite: the .changes' Distribution (unstable) publishes to it.
    const one = await writeFor('developers-dput-1', ['sid']);
    const ok = asAlice(['dput', '-s', '-U', one.name, changes]);
    const said = `${ok.stdout}${ok.stderr}`;
    expect(ok.status, said).toBe(0);
    expect(said).toContain('running debusine-check-workflow');
    expect(said).toContain(`Uploading ${basename(pkg.dsc)} (simulation)`);

    // Two suites, neither unstable: dput-ng refuses before uploading, as the app does.
    const two = await writeFor('developers-dput-2', ['sid', 'trixie-backports']);
    const refused = asAlice(['dput', '-s', '-U', two.name, changes]);
    const why = `${refused.stdout}${refused.stderr}`;
    expect(refused.status, why).not.toBe(0);
    expect(why).toContain("No debusine workflow is configured for 'unstable'");
    expect(why).not.toContain('(simulation)');
    const profile = await new DputProfiles([system, userDir]).profile(two.name);
    if (!profile) throw new Error('the profile was not read back');
    expect(chooseWorkflow(profile, 'unstable')).toEqual({
      problem: `No Debusine workflow is configured for the distribution "unstable" in the dput-ng profile ${two.name}`,
    });
  });
});
