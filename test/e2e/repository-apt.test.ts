/**
 * A personal APT repository used as a developer uses one, on the current sandbox (set up as
 * debusine.debian.net publishes them), with apt itself at the other end:
 *
 * - a public repository and a private one made in the Repositories area, each with a suite
 *   `sid` made as `debusine archive suite create` makes it;
 * - the journey's package (a C program, built for real) dropped on the Upload area and
 *   published to the public suite through "Publish to", the notification saying so once the
 *   suite's indexes are updated and signed;
 * - in a throwaway Debian system (the sandbox's own trixie build environment, entered with
 *   chroot), the `.sources` file the app saves: `apt-get update` verifies InRelease with the
 *   key inline, `apt-get install` installs the package and its program prints this run's
 *   greeting;
 * - the package copied to the private suite through the app; anonymous apt is refused
 *   there, and with the `auth.conf` line of a viewer token granted in the app, over HTTPS
 *   (the sandbox's CA given to apt), it installs the same;
 * - the package removed from the public suite through the app: apt no longer offers it.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { aptRoot, type AptRoot } from '../support/apt-root';
import { ownerClient, unique, waitForCompletion } from '../support/clients';
import { missingDebianTools } from '../support/debian-fixtures';
import { dropFiles } from '../support/drop-files';
import { appSession, goTo, goToTab, screenshotsInBothThemes } from '../support/e2e';
import { realPackages } from '../support/real-packages';
import { deleteWorkspace, setArchiveAddress } from '../support/repositories';
import { hasServer, testServer } from '../support/sandbox';

const server = hasServer('current') ? testServer('current') : null;
const repo = server?.sandbox && server.developers && server.realWork ? server.repositories : null;
const canRun = repo !== null && missingDebianTools() === undefined;
/** The pipeline of the package (build and QA, then publication): about 5 minutes here. */
const PIPELINE_MS = 25 * 60_000;

/** Makes a repository in the Repositories area; resolves once its workflow has made it. */
async function makeRepository(page: Page, suffix: string, isPublic: boolean): Promise<void> {
  if (!repo) return;
  await goTo(page, 'Repositories');
  await page.getByRole('button', { name: 'New repository' }).click();
  const form = page.getByRole('form', { name: 'New repository' });
  await form.getByRole('combobox', { name: 'Kind' }).selectOption(repo.templates.experiment);
  await form.getByRole('textbox', { name: 'Name' }).fill(suffix);
  await form.getByRole('checkbox', { name: 'Public' }).setChecked(isPublic);
  await form.getByRole('button', { name: 'Make the repository' }).click();
  await page.getByText('No suites').waitFor({ timeout: 180_000 });
  await page.getByRole('button', { name: 'New suite' }).click();
  const suiteForm = page.getByRole('form', { name: 'New suite' });
  await suiteForm.getByRole('textbox', { name: 'Suite' }).fill('sid');
  await suiteForm.getByRole('button', { name: 'Make the suite' }).click();
  await page.getByRole('table', { name: 'Suites' }).getByText('publish-to-sid').waitFor();
}

async function openRepository(page: Page, workspace: string): Promise<void> {
  await goTo(page, 'Repositories');
  await page.getByRole('button', { name: new RegExp(`^${workspace}`) }).click();
  await page.getByRole('heading', { name: workspace }).waitFor();
}

/**
 * The `.sources` file the app saves for the open repository's suite, once it has a key and
 * names the archive at `archiveUrl` (read again after the address changed).
 */
async function savedSources(page: Page, archiveUrl: string): Promise<string> {
  const shown = page.getByLabel('APT source');
  await shown.waitFor({ timeout: 120_000 });
  await expect
    .poll(() => shown.textContent(), { timeout: 60_000 })
    .toContain(`URIs: ${archiveUrl}/`);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Save as…' }).first().click(),
  ]);
  return readFile(await download.path(), 'utf8');
}

/** Waits for the notification that `what` is published, in the app's list of them. */
async function publishedNotification(page: Page, what: RegExp): Promise<string> {
  await goToTab(page, 'Work requests', 'Notifications');
  const told = page.locator('[data-testid^="notification-"]').filter({ hasText: what }).first();
  await told.waitFor({ timeout: PIPELINE_MS });
  return (await told.textContent()) ?? '';
}

/**
 * `apt-get update`, which exits 0 even when a source could not be fetched or verified: any
 * warning or error it prints fails the test here. Its output.
 */
function update(root: AptRoot): string {
  const run = root.run(['apt-get', 'update']);
  const said = `${run.stdout}${run.stderr}`;
  if (run.status !== 0 || /^(W|E|Err):/m.test(said)) {
    throw new Error(`apt-get update exited ${String(run.status)}:\n${said}`);
  }
  return said;
}

function ok(root: AptRoot, args: string[]): string {
  const run = root.run(args);
  if (run.status !== 0) {
    throw new Error(
      `${args.join(' ')} exited ${String(run.status)}:\n${run.stdout}\n${run.stderr}`,
    );
  }
  return run.stdout;
}

describe.runIf(canRun)('a repository of the user’s, installed from with apt', () => {
  const client = ownerClient('current');
  const pkg = realPackages().good;
  const userDput = mkdtempSync(join(tmpdir(), 'ddt-dput-user-'));
  const publicName = unique('apt');
  const privateName = unique('apt-private');
  const publicWs = `${repo?.baseWorkspace ?? ''}-${publicName}`;
  const privateWs = `${repo?.baseWorkspace ?? ''}-${privateName}`;
  let root: AptRoot | undefined;
  const started: number[] = [];

  const session = appSession('current', {
    env: () => ({
      // The sandbox's dput-ng profile, then the user's directory the app writes into.
      DEBUSINE_DESKTOP_DPUT_DIRS: `${server?.developers?.dputProfiles ?? ''}:${userDput}`,
    }),
    cleanUp: async () => {
      // Whatever happened here, nothing of this run keeps the worker busy afterwards.
      for (const id of started) {
        const wr = await client.workRequestGet(id).catch(() => undefined);
        if (wr && wr.status !== 'completed' && wr.status !== 'aborted') {
          await client.workRequestAbort(id).catch(() => undefined);
        }
      }
      root?.close();
      if (server) for (const ws of [publicWs, privateWs]) deleteWorkspace(server, ws);
    },
    close: () => client.close(),
  });

  function apt(): AptRoot {
    if (!root) throw new Error('no apt root');
    return root;
  }

  it(
    'publishes a real package from the Upload area; apt verifies, installs and runs it',
    async () => {
      if (!repo) return;
      const rootReady = aptRoot(client);
      // Awaited once the package is published; a failure before then is told there.
      rootReady.catch(() => undefined);
      const { page, errors } = await openPage(session.browser, session.app);
      await makeRepository(page, publicName, true);
      await setArchiveAddress(page, repo.archiveUrl);
      // The dput-ng profile of the repository, where dput reads it.
      await page.getByRole('button', { name: 'Write the dput-ng profile' }).click();
      const written = page.getByRole('status', { name: 'dput-ng profile' });
      await written.waitFor();
      const profileFile = join(userDput, 'profiles', `127.0.0.1-${publicWs}.json`);
      expect(await written.textContent()).toContain(profileFile);
      expect(JSON.parse(readFileSync(profileFile, 'utf8'))).toMatchObject({
        debusine_workspace: publicWs,
        debusine_workflows_by_distribution: { sid: 'publish-to-sid', '*': 'publish-to-sid' },
        fqdn: '127.0.0.1',
        method: 'debusine',
      });
      await makeRepository(page, privateName, false);

      // The journey's .changes, published to the public repository's sid.
      await goTo(page, 'Upload');
      await dropFiles(page, [pkg.changes, pkg.dsc, pkg.tarball]);
      const draft = page.getByTestId('draft');
      await draft.getByTestId('draft-ready').waitFor({ timeout: 60_000 });
      await draft
        .getByRole('combobox', { name: 'Publish to' })
        .selectOption({ label: `sid in ${publicWs}` });
      const start = draft.getByTestId('upload-start');
      await expect(start.textContent()).resolves.toBe('Upload and publish to sid');
      await screenshotsInBothThemes(page, 'upload-publish-to');
      await start.click();
      // The workflow the upload started, among the newest roots (other tests start theirs on
      // the same server meanwhile): aborted at the end if it still runs.
      const pipelineIn = async (workspace: string): Promise<number> => {
        let seen = 0;
        for await (const wr of client.workRequestIter({ rootOnly: true })) {
          if (wr.workspace === workspace && wr.task_name === 'debian_pipeline') return wr.id;
          if (++seen >= 100) break;
        }
        return 0;
      };
      await expect.poll(() => pipelineIn(publicWs), { timeout: 120_000 }).toBeGreaterThan(0);
      started.push(await pipelineIn(publicWs));

      const told = await publishedNotification(
        page,
        new RegExp(`${pkg.name} ${pkg.version.replaceAll('.', '\\.')} published to sid`),
      );
      expect(told).toContain(publicWs);
      // Told at the suite's update, not at the workflow's end: the update has succeeded.
      await screenshotsInBothThemes(page, 'repository-published-notification');

      // The suite lists the package, source and binary.
      await openRepository(page, publicWs);
      await page.getByRole('tab', { name: 'Packages' }).click();
      const packages = page.getByRole('table', { name: 'Packages of sid' });
      await packages.getByText(pkg.name).first().waitFor({ timeout: 60_000 });
      expect(await packages.getByRole('row').count()).toBeGreaterThanOrEqual(3);

      // apt, in a Debian system of its own, with the file the app saves.
      await page.getByRole('tab', { name: 'Install with apt' }).click();
      const sources = await savedSources(page, repo.archiveUrl);
      root = await rootReady;
      // The sandbox's certificate authority, for the HTTPS archive the private one needs.
      apt().copyIn(repo.caCertificate, '/etc/ssl/ddt-sandbox-ca.pem');
      apt().write(
        '/etc/apt/apt.conf.d/90ddt-sandbox-ca',
        'Acquire::https::CaInfo "/etc/ssl/ddt-sandbox-ca.pem";\n',
      );
      apt().write(`/etc/apt/sources.list.d/${publicWs}-sid.sources`, sources);
      expect(update(apt())).toMatch(/InRelease/);
      ok(apt(), ['apt-get', 'install', '-y', '--no-install-recommends', pkg.name]);
      expect(ok(apt(), [pkg.name]).trim()).toBe(pkg.greeting);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    PIPELINE_MS + 10 * 60_000,
  );

  it(
    'copies it to a private repository, where apt needs the viewer token’s login over HTTPS',
    async () => {
      if (!repo) return;
      const { page, errors } = await openPage(session.browser, session.app);
      await openRepository(page, publicWs);
      await page.getByRole('tab', { name: 'Packages' }).click();
      await page.getByRole('button', { name: new RegExp(`^Copy or move ${pkg.name}_`) }).click();
      const form = page.getByRole('form', { name: `Copy or move ${pkg.name} ${pkg.version}` });
      await form
        .getByRole('combobox', { name: 'To' })
        .selectOption({ label: `sid in ${privateWs}` });
      await screenshotsInBothThemes(page, 'repository-copy');
      await form.getByRole('button', { name: 'Copy', exact: true }).click();
      await form.getByRole('status').waitFor({ timeout: 60_000 });
      const status = (await form.getByRole('status').textContent()) ?? '';
      const copyId = Number(/workflow (\d+)/.exec(status)?.[1]);
      started.push(copyId);
      expect(await waitForCompletion(client, copyId, 300_000)).toMatchObject({ result: 'success' });
      const told = await publishedNotification(page, new RegExp(`In ${privateWs}`));
      expect(told).toContain(`${pkg.name} ${pkg.version} published to sid`);
      // The same copy by the CLI, as alice in the sandbox's chroot: the same workflow.
      const cli = spawnSync(
        'chroot',
        [
          '--userspec=alice:alice',
          server?.root ?? '/nonexistent',
          ...['env', '-i', 'PATH=/usr/bin:/bin', 'HOME=/home/alice', 'LANG=C.UTF-8'],
          ...['debusine', 'archive', 'package', 'copy', '--yaml', '--include-binaries'],
          ...['--from-workspace', publicWs, '--from-suite', 'sid'],
          ...['--to-workspace', privateWs, '--to-suite', 'sid'],
          ...['--source-version', pkg.version, pkg.name],
        ],
        { encoding: 'utf8', timeout: 120_000 },
      );
      expect(cli.status, `${cli.stdout}${cli.stderr}`).toBe(0);
      const cliId = Number(/\bid: (\d+)/.exec(cli.stdout)?.[1]);
      started.push(cliId);
      const [ours, theirs] = await Promise.all([
        client.workRequestGet(copyId),
        client.workRequestGet(cliId),
      ]);
      expect([ours.task_name, ours.workspace, ours.task_data]).toEqual([
        theirs.task_name,
        theirs.workspace,
        theirs.task_data,
      ]);

      // The private repository over HTTPS, as a private one must be read.
      await openRepository(page, privateWs);
      await setArchiveAddress(page, repo.archiveTlsUrl);
      const sources = await savedSources(page, repo.archiveTlsUrl);
      expect(sources).toContain(`URIs: ${repo.archiveTlsUrl}/`);
      apt().write(`/etc/apt/sources.list.d/${privateWs}-sid.sources`, sources);
      // Without the login, the private suite is refused (as not there).
      const anonymous = apt().run(['apt-get', 'update']);
      const said = `${anonymous.stdout}${anonymous.stderr}`;
      expect(anonymous.status !== 0 || /^(W|E|Err):/m.test(said), said).toBe(true);
      // Refused for want of a login, not for a certificate or a network failure.
      expect(said).toMatch(/\b40[14]\b/);

      const grant = page.getByRole('form', { name: 'Grant a viewer token' });
      await grant.getByRole('textbox', { name: 'Login name' }).fill(unique('apt'));
      await grant.getByRole('button', { name: 'Grant' }).click();
      await page.getByLabel('auth.conf line').waitFor();
      const line = ((await page.getByLabel('auth.conf line').textContent()) ?? '').trim();
      expect(line).toMatch(/^machine \S+ login \S+ password \S+$/);
      apt().write(`/etc/apt/auth.conf.d/${privateWs}.conf`, `${line}\n`, 0o600);
      ok(apt(), ['apt-get', 'remove', '-y', pkg.name]);
      // Only the private suite now, so that what is installed comes from it.
      apt().run(['rm', '-f', `/etc/apt/sources.list.d/${publicWs}-sid.sources`]);
      update(apt());
      ok(apt(), ['apt-get', 'install', '-y', '--no-install-recommends', pkg.name]);
      expect(ok(apt(), [pkg.name]).trim()).toBe(pkg.greeting);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    10 * 60_000,
  );

  it(
    'removes it from the public suite: apt no longer offers it',
    async () => {
      if (!repo) return;
      const { page, errors } = await openPage(session.browser, session.app);
      await openRepository(page, publicWs);
      await page.getByRole('tab', { name: 'Install with apt' }).click();
      const sources = await savedSources(page, repo.archiveTlsUrl);
      apt().run(['rm', '-f', `/etc/apt/sources.list.d/${privateWs}-sid.sources`]);
      apt().write(`/etc/apt/sources.list.d/${publicWs}-sid.sources`, sources);
      // Not installed, so that what apt lists is what the repository offers.
      ok(apt(), ['apt-get', 'purge', '-y', pkg.name]);
      update(apt());
      expect(ok(apt(), ['apt-cache', 'madison', pkg.name])).toContain(publicWs);

      await page.getByRole('tab', { name: 'Packages' }).click();
      await page
        .getByRole('button', { name: new RegExp(`^Remove ${pkg.name}_${pkg.version}$`) })
        .click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
      // The server signs the suite's indexes anew in the background: apt sees it then.
      await expect
        .poll(
          () => {
            update(apt());
            return apt().run(['apt-cache', 'madison', pkg.name]).stdout;
          },
          { timeout: 300_000, interval: 5_000 },
        )
        .not.toContain(publicWs);
      const install = apt().run(['apt-get', 'install', '-y', pkg.name]);
      expect(install.status).not.toBe(0);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    10 * 60_000,
  );
});
