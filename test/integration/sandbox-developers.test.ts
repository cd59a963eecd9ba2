/**
 * The current sandbox's `developers` workspace, as sandbox.sh seeds it for the upload
 * journey of debusine.debian.net (dput-ng → debian_pipeline → signature → upload queue):
 * checked cheaply here, with no build. The journey itself takes minutes of the worker.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientFor } from '../support/clients';
import { FtpSession } from '../support/ftp-client';
import { hasServer, testServer } from '../support/sandbox';

const developers = hasServer('current') ? testServer('current').developers : null;

describe.runIf(developers !== null)('the current sandbox’s developers workspace', () => {
  const server = testServer('current');
  const dev = developers ?? {
    workspace: '',
    templates: { unstable: '', experimental: '' },
    uploadQueue: { url: '', dir: '' },
    dputProfiles: '',
    dputHost: '',
  };
  const client = clientFor(server);
  afterAll(async () => {
    await client.close();
  });

  it('inherits System, whose build environments its workflows look up', async () => {
    const { chain } = await client.getWorkspaceInheritance(dev.workspace);
    expect(chain.map((e) => e.workspace)).toEqual([server.workspaces.default]);
  });

  it.each(['unstable', 'experimental'] as const)(
    'has a template that uploads to %s after a signature',
    async (distribution) => {
      const template = await client.workflowTemplateGet(dev.workspace, dev.templates[distribution]);
      expect(template.task_name).toBe('debian_pipeline');
      expect(template.static_parameters).toMatchObject({
        vendor: 'debian',
        codename: 'trixie',
        enable_upload: true,
        upload_require_signature: true,
        upload_include_binaries: false,
        upload_target: dev.uploadQueue.url,
        upload_target_distribution: distribution,
        qa_failure_policy: 'fail',
      });
      // Without a key the upload waits for the uploader's own signature (externaldebsign).
      expect(template.static_parameters).not.toHaveProperty('upload_key');
      expect(template.runtime_parameters).toEqual({ source_artifact: 'any' });
    },
  );

  it('has an upload queue that takes anonymous uploads and shows nothing', async () => {
    const name = `probe-${randomBytes(6).toString('hex')}.txt`;
    const body = Buffer.from(`probe ${name}\n`);
    const ftp = await FtpSession.open(dev.uploadQueue.url);
    try {
      await ftp.expect(ftp.command(`CWD ${new URL(dev.uploadQueue.url).pathname}`), 250);
      expect((await ftp.store(name, body)).reply.code).toBe(226);
      expect(await readFile(join(dev.uploadQueue.dir, name))).toEqual(body);
      // Write-only: a file in the queue is there because an upload put it there.
      expect((await ftp.fetch('LIST')).reply.code).toBe(550);
      expect((await ftp.fetch(`RETR ${name}`)).reply.code).toBe(550);
      expect((await ftp.command(`DELE ${name}`)).code).toBe(550);
    } finally {
      await ftp.close();
      await rm(join(dev.uploadQueue.dir, name), { force: true });
    }
  });

  it('has a dput-ng profile for the workspace and its templates', async () => {
    const file = join(dev.dputProfiles, 'profiles', `${dev.dputHost}.json`);
    const profile = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(profile).toMatchObject({
      method: 'debusine',
      meta: 'debusine',
      // The Debusine client's server section is found by this host name and the scope.
      fqdn: new URL(server.apiUrl).hostname,
      debusine_scope: server.scope,
      debusine_workspace: dev.workspace,
      debusine_workflow_data: { source_artifact: '@UPLOAD@' },
    });
    const byDistribution = profile.debusine_workflows_by_distribution as Record<string, string>;
    expect(byDistribution.sid).toBe(dev.templates.unstable);
    // dput-ng's debusine hook fills {distribution} in from the .changes.
    expect(byDistribution['*']?.replace('{distribution}', 'unstable')).toBe(dev.templates.unstable);
    expect(byDistribution['*']?.replace('{distribution}', 'experimental')).toBe(
      dev.templates.experimental,
    );
  });
});
