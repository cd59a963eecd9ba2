/**
 * The app's repositories (service/repositories.ts) on the current sandbox, through the
 * bridge as the renderer calls it: the templates of `developers`, a repository made and
 * followed until it exists, a suite made as `debusine archive suite create` makes one (the
 * suite, its `publish-to-` template and its relations compared with what the CLI makes in
 * the same repository, in the same run), what apt needs once the suite is published (the
 * key from the API, its fingerprint computed by the app and by gpg), viewer tokens, and
 * the clear refusals: a workspace that is not a repository, a suite name the server
 * refuses, a base template that does not exist.
 */
import { spawnSync } from 'node:child_process';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepositoryEntry } from '../../src/shared/contract';
import { appService } from '../support/app-upload';
import { clientFor, unique, waitForCompletion } from '../support/clients';
import { deleteWorkspace, NO_REPOSITORIES, publishAsTheyAre } from '../support/repositories';
import { hasServer, testServer } from '../support/sandbox';
import type { ServiceBridge } from '../support/service-bridge';
import { tempDirInEachTest } from '../support/temp-dirs';

const run = promisify(execFile);
const server = hasServer('current') ? testServer('current') : null;
const repositories = server?.sandbox && server.developers ? server.repositories : null;

describe.runIf(repositories !== null)(
  'repositories through the app, on the current sandbox',
  () => {
    const sandbox = server ?? testServer('current');
    const repo = repositories ?? NO_REPOSITORIES;
    const baseTemplate = sandbox.developers?.templates.unstable ?? '';
    const client = clientFor(sandbox);
    let s: ServiceBridge;
    let workspace = '';
    let dir = '';
    tempDirInEachTest('ddt-repositories-service-', (d) => (dir = d));

    /** The Debusine CLI, as alice in the sandbox's chroot; fails the test when it fails. */
    function cliAsAlice(args: string[]): string {
      const cli = spawnSync(
        'chroot',
        [
          '--userspec=alice:alice',
          sandbox.root ?? '/nonexistent',
          ...['env', '-i', 'PATH=/usr/bin:/bin', 'HOME=/home/alice', 'LANG=C.UTF-8'],
          'debusine',
          ...args,
        ],
        { encoding: 'utf8', timeout: 120_000 },
      );
      expect(cli.status, `${cli.stdout}${cli.stderr}`).toBe(0);
      return cli.stdout;
    }

    beforeAll(async () => {
      s = await appService(sandbox);
      await s.api.repositories.setArchiveUrl({ url: repo.archiveUrl });
    });
    afterAll(async () => {
      await s.close();
      await client.close();
    });

    it('finds the templates of developers, and makes a repository it follows until it exists', async () => {
      const templates = await s.api.repositories.templates({ workspace: repo.baseWorkspace });
      expect(templates).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            name: repo.templates.experiment,
            kind: 'experiment',
            expirationDays: 60,
          }),
          expect.objectContaining({
            name: repo.templates.kept,
            kind: 'kept',
            expirationDays: null,
          }),
        ]),
      );
      const suffix = unique('app');
      const made = await s.api.repositories.create({
        workspace: repo.baseWorkspace,
        template: repo.templates.experiment,
        suffix,
        public: true,
      });
      workspace = `${repo.baseWorkspace}-${suffix}`;
      expect(made).toMatchObject({ workspace, kind: 'experiment', public: true });
      expect(['creating', 'ready']).toContain(made.state);
      if (made.workflowId !== null) await waitForCompletion(client, made.workflowId, 120_000);
      const listed = await s.api.repositories.list();
      expect(listed.find((r: RepositoryEntry) => r.workspace === workspace)).toMatchObject({
        state: 'ready',
        workflowId: null,
      });
    }, 180_000);

    it('makes a suite as the CLI does: the same collection and template', async () => {
      const added = await s.api.repositories.addSuite({
        workspace,
        suite: 'sid',
        architectures: ['amd64'],
        components: ['main'],
        baseTemplate,
      });
      expect(added).toEqual({
        name: 'sid',
        components: ['main'],
        architectures: ['amd64'],
        publishTemplate: 'publish-to-sid',
      });
      // The CLI, as alice in the sandbox's chroot, in the same repository.
      cliAsAlice([
        ...['archive', 'suite', 'create', '--workspace', workspace, '--architecture', 'amd64'],
        ...['--base-workflow-template', baseTemplate, 'cli-sid'],
      ]);

      const app = await client.collectionGet(workspace, 'debian:suite', 'sid');
      const theirs = await client.collectionGet(workspace, 'debian:suite', 'cli-sid');
      expect(app.data).toEqual(theirs.data);
      expect([app.full_history_retention_period, app.metadata_only_retention_period]).toEqual([
        theirs.full_history_retention_period,
        theirs.metadata_only_retention_period,
      ]);
      const appTemplate = await client.workflowTemplateGet(workspace, 'publish-to-sid');
      const theirTemplate = await client.workflowTemplateGet(workspace, 'publish-to-cli-sid');
      const normal = (t: typeof appTemplate) => ({
        task_name: t.task_name,
        static_parameters: JSON.parse(
          JSON.stringify(t.static_parameters).replaceAll('cli-sid@', 'sid@'),
        ) as unknown,
        runtime_parameters: t.runtime_parameters,
        priority: t.priority,
      });
      expect(normal(appTemplate)).toEqual(normal(theirTemplate));
      expect(appTemplate.static_parameters).not.toHaveProperty('enable_upload');
      expect(appTemplate.static_parameters).toMatchObject({
        suite: 'sid@debian:suite',
        architectures_allowlist: ['all', 'amd64'],
      });
      const suites = await s.api.repositories.suites({ workspace });
      expect(suites.map((x) => [x.name, x.publishTemplate])).toEqual([
        ['cli-sid', 'publish-to-cli-sid'],
        ['sid', 'publish-to-sid'],
      ]);
    }, 180_000);

    it('says what apt needs: nothing to trust before the first publication, then the key inline', async () => {
      const before = await s.api.repositories.aptSetup({ workspace, suite: 'sid' });
      // Nothing published: no key is due yet, and the sandbox's archive host answers.
      expect(before).toMatchObject({
        keyState: 'not-yet',
        suiteHasPackages: false,
        sources: null,
        private: false,
        archiveProblem: null,
      });
      await publishAsTheyAre(client, workspace);
      const setup = await s.api.repositories.aptSetup({
        workspace,
        suite: 'sid',
        withSources: true,
      });
      expect(setup.keyState).toBe('present');
      expect(setup.repositoryUri).toBe(`${repo.archiveUrl}/${sandbox.scope}/${workspace}`);
      expect(setup.sources).toContain(`URIs: ${setup.repositoryUri}\n`);
      expect(setup.sources).toContain('Types: deb deb-src\nURIs');
      expect(setup.sources).toContain(
        'Suites: sid\nComponents: main\nArchitectures: amd64\nSigned-By:\n',
      );
      // The fingerprint the app computed is gpg's, and the key is the archive's own.
      const armored = (setup.sources ?? '')
        .split('\n')
        .filter((l) => l.startsWith(' '))
        .map((l) => (l === ' .' ? '' : l.slice(1)))
        .join('\n');
      await writeFile(`${dir}/key.asc`, `${armored}\n`);
      const { stdout } = await run(
        'gpg',
        ['--batch', '--with-colons', '--show-keys', `${dir}/key.asc`],
        {
          env: { ...process.env, GNUPGHOME: dir },
        },
      );
      const gpgFingerprints = stdout
        .split('\n')
        .filter((l) => l.startsWith('fpr:'))
        .map((l) => l.split(':')[9]);
      expect(gpgFingerprints).toContain(setup.keyFingerprints[0]);
      const archive = await client.collectionGet(workspace, 'debian:archive', '_');
      expect(archive.data.signing_keys).toEqual(setup.keyFingerprints);
      expect(setup.debuginfod).toBe(`export DEBUGINFOD_URLS="${setup.repositoryUri}"\n`);
      expect(setup.archiveProblem).toBeNull();

      // The archive's address set to where nothing listens (a port just freed): said, and
      // what the API tells is still shown.
      const free = createServer();
      await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
      const port = String((free.address() as AddressInfo).port);
      await new Promise<void>((r) => free.close(() => r()));
      await s.api.repositories.setArchiveUrl({ url: `http://127.0.0.1:${port}` });
      try {
        const away = await s.api.repositories.aptSetup({ workspace, suite: 'sid' });
        expect(away.archiveProblem).toBe('connection refused: nothing listens there');
        expect(away.keyState).toBe('present');
        expect(away.sources).toContain(`URIs: http://127.0.0.1:${port}/`);
      } finally {
        await s.api.repositories.setArchiveUrl({ url: repo.archiveUrl });
      }
    }, 240_000);

    it('sets a suite’s relations from its base template’s QA collections, as the CLI does', async () => {
      // A base template whose QA compares with a reference suite and its QA results, as
      // regression tracking on debusine.debian.net names them: made here in the repository,
      // with the base's own steps.
      const base = await client.workflowTemplateGet(repo.baseWorkspace, baseTemplate);
      for (const category of ['debian:suite', 'debian:qa-results']) {
        await client.collectionCreate(workspace, { name: 'reference', category, data: {} });
      }
      await client.workflowTemplateCreate(workspace, {
        name: 'with-qa',
        task_name: 'debian_pipeline',
        static_parameters: {
          ...base.static_parameters,
          qa_suite: 'reference@debian:suite',
          regression_tracking_qa_results: 'reference@debian:qa-results',
        },
        runtime_parameters: base.runtime_parameters,
        priority: base.priority,
      });
      await s.api.repositories.addSuite({
        workspace,
        suite: 'qa-sid',
        architectures: ['amd64'],
        components: ['main'],
        baseTemplate: 'with-qa',
      });
      cliAsAlice([
        ...['archive', 'suite', 'create', '--workspace', workspace, '--architecture', 'amd64'],
        ...['--base-workflow-template', 'with-qa', 'cli-qa-sid'],
      ]);
      const relationsOf = async (suite: string) => {
        const url = new URL(`${sandbox.apiUrl}/1.0/collection-relation/${workspace}/`);
        url.searchParams.set('source', `${suite}@debian:suite`);
        const response = await fetch(url, {
          headers: { token: sandbox.users.owner.token, 'x-debusine-scope': sandbox.scope },
        });
        expect(response.status).toBe(200);
        const body = (await response.json()) as {
          results: { target_collection: { name: string; category: string }; type: string }[];
        };
        return body.results
          .map((r) => `${r.type} → ${r.target_collection.name}@${r.target_collection.category}`)
          .sort();
      };
      const ours = await relationsOf('qa-sid');
      expect(ours).toEqual([
        'suite-default-qa-results → reference@debian:qa-results',
        'suite-targeting → reference@debian:suite',
      ]);
      expect(ours).toEqual(await relationsOf('cli-qa-sid'));
      // The templates agree too, QA collections included.
      const [appTemplate, theirTemplate] = await Promise.all([
        client.workflowTemplateGet(workspace, 'publish-to-qa-sid'),
        client.workflowTemplateGet(workspace, 'publish-to-cli-qa-sid'),
      ]);
      expect(appTemplate.static_parameters).toEqual(
        JSON.parse(
          JSON.stringify(theirTemplate.static_parameters).replaceAll('cli-qa-sid@', 'qa-sid@'),
        ),
      );
    }, 180_000);

    it('grants a viewer token whose auth.conf line names the repository, lists it, and revokes it', async () => {
      const username = unique('apt');
      const granted = await s.api.repositories.grantToken({
        workspace,
        username,
        comment: 'laptop',
      });
      expect(granted.key).toMatch(/^[0-9a-f]{20,}$/);
      expect(granted.authConf).toBe(
        `machine ${new URL(repo.archiveUrl).host}/${sandbox.scope}/${workspace}/ login ${username} password ${granted.key}\n`,
      );
      const tokens = await s.api.repositories.tokens({ workspace });
      expect(tokens.map((t) => t.tokenHash)).toContain(granted.tokenHash);
      // The list never carries a key.
      expect(JSON.stringify(tokens)).not.toContain(granted.key);
      await s.api.repositories.revokeToken({ workspace, tokenHash: granted.tokenHash });
      const after = await s.api.repositories.tokens({ workspace });
      expect(after.map((t) => t.tokenHash)).not.toContain(granted.tokenHash);
    });

    it('refuses clearly: not a repository, a suite the server refuses, a base that does not exist', async () => {
      const missing = unique('no-such');
      await expect(s.api.repositories.remember({ workspace: missing })).rejects.toThrow(
        `${missing} has no archive (_@debian:archive): it is not a repository, it expired, or you may not see it`,
      );
      expect((await s.api.repositories.list()).map((r) => r.workspace)).not.toContain(missing);
      await expect(
        s.api.repositories.addSuite({ workspace, suite: 'sid', architectures: ['amd64'] }),
      ).rejects.toThrow(`The suite sid was not made in ${workspace}: `);
      await expect(
        s.api.repositories.addSuite({
          workspace,
          suite: 'experimental',
          architectures: ['amd64'],
          baseTemplate: 'no-such-template',
        }),
      ).rejects.toThrow(
        `No template no-such-template in ${workspace} or the workspaces it inherits`,
      );
      // Nothing was made by the refusal.
      const suites = await s.api.repositories.suites({ workspace });
      expect(suites.map((x) => x.name)).not.toContain('experimental');
      await expect(
        s.api.repositories.addSuite({ workspace, suite: '../etc', architectures: ['amd64'] }),
      ).rejects.toThrow(/suite/);
    });

    it('refuses a viewer token asked for by a user without the owner’s role, granting nothing', async () => {
      const bob = await appService({
        ...sandbox,
        users: { owner: { token: sandbox.users.noRoles?.token ?? '' } },
      });
      try {
        await bob.api.repositories.remember({ workspace });
        const username = unique('bob-apt');
        await expect(
          bob.api.repositories.grantToken({ workspace, username }),
        ).rejects.toMatchObject({
          code: 'forbidden',
          message: `No viewer token was granted to ${username} on ${workspace}: only the repository’s owners may grant its tokens`,
        });
        const tokens = await s.api.repositories.tokens({ workspace });
        expect(tokens.map((t) => t.username)).not.toContain(username);
      } finally {
        await bob.close();
      }
    });

    it('says a repository the server removed is gone, and offers none of its suites', async () => {
      expect((await s.api.repositories.targets()).map((t) => t.workspace)).toContain(workspace);
      // As the server does when an experiment expires (and as this test cleans up after it).
      deleteWorkspace(sandbox, workspace);
      const listed = (await s.api.repositories.list()).find((r) => r.workspace === workspace);
      expect(listed).toMatchObject({
        state: 'gone',
        message: `${workspace} is not on the server any more: an experiment is removed 60 days after its last task (or you may no longer see it)`,
      });
      expect((await s.api.repositories.targets()).map((t) => t.workspace)).not.toContain(workspace);
      await expect(s.api.repositories.suites({ workspace })).rejects.toThrow(
        `${workspace} has no archive (_@debian:archive): it is not a repository, it expired, or you may not see it`,
      );
      await s.api.repositories.forget({ workspace });
      expect((await s.api.repositories.list()).map((r) => r.workspace)).not.toContain(workspace);
    });
  },
);
