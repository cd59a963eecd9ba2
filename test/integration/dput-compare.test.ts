/**
 * The app against dput-ng on the same .changes, on the same server, in one run: dput-ng (in
 * the sandbox's chroot, as alice, with the Debusine uploader of debusine-client) and the
 * app's Upload screen path (drop, detect, uploads.start) each upload the source and two
 * arch-all .debs of the same package to the `developers` workspace. What each leaves on
 * the server is read back and compared: the upload, the artifacts it extends and relates
 * to, their categories, data and files.
 *
 * The comparison profile leaves out the hook that starts a workflow (dput-ng cannot upload
 * without starting one otherwise), and the app is not asked to start one: this test is
 * about the artifacts; the journey's own test starts the workflow.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianFixtures, missingDebianTools } from '../support/debian-fixtures';
import { hasServer, testServer } from '../support/sandbox';
import { uploadThroughApp } from '../support/app-upload';
import { chownToAlice, dputAsAlice, uploadOnlyProfile, writeDputProfile } from '../support/dput-ng';
import { uploadState as stateOf } from '../support/server-state';
import { serviceBridge, type ServiceBridge } from '../support/service-bridge';

const server = hasServer('current') ? testServer('current') : undefined;
const developers = server?.developers ?? null;
const root = server?.root;
const canRun =
  developers !== null &&
  root !== undefined &&
  existsSync(join(root, 'usr/bin/dput')) &&
  missingDebianTools() === undefined;

describe.runIf(canRun)('a .changes through the app and through dput-ng', () => {
  const fx = debianFixtures();
  const workspace = developers?.workspace ?? '';
  let s: ServiceBridge;
  const home = join(root ?? '', 'home/alice');
  let dir = '';

  beforeAll(async () => {
    s = await serviceBridge({}, ['connection.state', 'upload.finished']);
    if (server) await s.signIn(server);
    dir = mkdtempSync(join(home, 'ddt-compare-'));
    for (const file of [fx.changes, fx.dsc, fx.sourceTarball, fx.buildinfo, ...fx.debs]) {
      copyFileSync(file, join(dir, basename(file)));
    }
    chownToAlice(root ?? '', `/${relative(root ?? '', dir)}`);
    writeDputProfile(root ?? '', 'ddt-compare', uploadOnlyProfile(server?.scope ?? '', workspace));
  });

  afterAll(async () => {
    await s.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the same artifacts, data, files and relations on the server', async () => {
    const inChroot = `/home/alice/${basename(dir)}/${basename(fx.changes)}`;
    // dput-ng logs the artifact it made.
    const output = dputAsAlice(root ?? '', 'ddt-compare', inChroot);
    const dputId = Number(/\/artifact\/(\d+)\//.exec(output)?.[1] ?? NaN);
    expect(dputId, output).toBeGreaterThan(0);

    const job = await uploadThroughApp(
      s,
      [fx.changes, fx.dsc, fx.sourceTarball, fx.buildinfo, ...fx.debs],
      { workspace },
    );
    expect(job.parts.map((p) => p.category)).toEqual([
      'debian:upload',
      'debian:source-package',
      'debian:binary-package',
      'debian:binary-package',
    ]);
    const appId = job.artifactId ?? 0;

    const client = s.made.service.session.client();
    const app = await stateOf(client, appId);
    const dput = await stateOf(client, dputId);
    expect(Object.keys(dput.relations).sort()).toEqual(['extends', 'relates-to']);
    expect(dput.relations.extends).toHaveLength(3);
    expect(app).toEqual(dput);
  });
});
