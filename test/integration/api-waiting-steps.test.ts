import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createUpload } from '../../src/main/artifacts/local/kinds-debian';
import { uploadArtifact } from '../../src/main/artifacts/transfer/upload-engine';
import { DebusineClient } from '../../src/main/api/client';
import { clientFor, waitForCompletion } from '../support/clients';
import { debianFixtures, have, missingDebianTools } from '../support/debian-fixtures';
import { testServer, usingExternalServers } from '../support/sandbox';
import {
  seedSigningStep,
  seedSigningWorkRequest,
  seedWaitingStep,
  uploadUnsignedFixture,
} from '../support/seed-steps';

/** Clear-signs a .changes with a throwaway key, as debsign would (gpg --clearsign). */
function clearSign(file: string): void {
  const home = mkdtempSync(join(tmpdir(), 'ddt-gnupg-'));
  const gpg = (args: string[]): void => {
    execFileSync('gpg', ['--homedir', home, '--batch', '--pinentry-mode', 'loopback', ...args], {
      stdio: 'ignore',
    });
  };
  gpg([
    '--passphrase',
    '',
    '--quick-gen-key',
    'Debusine Desktop Test <test@example.org>',
    'ed25519',
    'sign',
    '1d',
  ]);
  gpg(['--passphrase', '', '--yes', '--clearsign', '--output', `${file}.asc`, file]);
  copyFileSync(`${file}.asc`, file);
}

// Waiting steps only arise inside workflows whose other steps need build environments the
// sandbox lacks, so the steps are seeded in the database (test/support/seed-steps.ts) and
// the endpoints that act on them run for real.
describe.runIf(!usingExternalServers())('waiting steps on the current server', () => {
  const server = testServer('current');
  const client = clientFor(server);
  afterAll(async () => {
    await client.close();
  });

  it('unblocks a manual step of a workflow', async () => {
    const id = await seedWaitingStep(server, { kind: 'manual-unblock' });
    expect((await client.workRequestGet(id)).status).toBe('blocked');
    const unblocked = await client.workRequestUnblock(id, { action: 'accept', notes: 'go ahead' });
    expect(unblocked.id).toBe(id);
    expect(unblocked.status).toBe('pending');
  });

  it('confirms a confirm step', async () => {
    const id = await seedWaitingStep(server, { kind: 'confirm' });
    const confirmed = await client.workRequestConfirm(id, { confirm: true, comment: 'checked' });
    expect(confirmed.status).toBe('completed');
    expect(confirmed.result).toBe('success');
  });

  it.skipIf(missingDebianTools() !== undefined || !have('gpg'))(
    'completes an external debsign step with a signed upload',
    async () => {
      const fx = debianFixtures();
      const { id, unsigned } = await seedSigningStep(client, server);

      const waiting = await client.workRequestExternalDebsignGet(id);
      expect(waiting.status).toBe('running');
      expect(waiting.dynamic_task_data).toMatchObject({ unsigned_id: unsigned.id });

      // The signed upload: the same files, with a clear-signed .changes.
      const dir = mkdtempSync(join(tmpdir(), 'ddt-signed-'));
      for (const file of [fx.changes, fx.dsc, fx.sourceTarball, fx.buildinfo, ...fx.debs]) {
        copyFileSync(file, join(dir, basename(file)));
      }
      const signedChanges = join(dir, basename(fx.changes));
      clearSign(signedChanges);
      expect(readFileSync(signedChanges, 'utf8')).toContain('BEGIN PGP SIGNED MESSAGE');
      const signed = await uploadArtifact(
        client,
        await createUpload({ changesFile: signedChanges }),
        {
          workspace: server.workspaces.default,
        },
      );

      const done = await client.workRequestExternalDebsignComplete(id, {
        signed_artifact: signed.id,
      });
      expect(done.id).toBe(id);
      expect(done.status).toBe('completed');
      expect(done.result).toBe('success');
    },
  );
});

// A signing worker's view: the work request's own token, issued by the server.
describe.runIf(!usingExternalServers())('worker-side operations on the current server', () => {
  const server = testServer('current');
  const owner = clientFor(server);
  afterAll(async () => {
    await owner.close();
  });

  it.skipIf(missingDebianTools() !== undefined)(
    'assetPermissionCheck answers for a signing work request, describing the artifact',
    async () => {
      const fx = debianFixtures();
      const upload = await uploadUnsignedFixture(owner, server);
      const fingerprint = randomBytes(20).toString('hex').toUpperCase();
      await owner.assetCreate({
        category: 'debusine:signing-key',
        workspace: server.workspaces.default,
        data: {
          purpose: 'openpgp',
          fingerprint,
          public_key: Buffer.from(`key ${fingerprint}`).toString('base64'),
          description: null,
        },
      });
      // The work request may only see its own inputs: a debsign of that upload.
      const signing = await seedSigningWorkRequest(server, {
        unsignedArtifactId: upload.id,
        fingerprint,
      });
      const worker = new DebusineClient({
        apiUrl: server.apiUrl,
        token: signing.token,
        scope: server.scope,
      });
      try {
        const answer = await worker.assetPermissionCheck({
          asset_category: 'debusine:signing-key',
          asset_slug: `openpgp:${fingerprint}`,
          permission_name: 'sign_with',
          artifact_id: upload.id,
          work_request_id: signing.workRequestId,
          workspace: server.workspaces.default,
        });
        // No usage of the key was granted to the workspace, so the answer is no.
        expect(answer.has_permission).toBe(false);
        expect(answer.username).toBe(server.users.owner.username);
        expect(answer.resource).toMatchObject({ source: fx.source, version: fx.version });
      } finally {
        await worker.close();
      }
    },
  );

  it('workRequestCompletedUpdate completes a work request with its own token', async () => {
    const signing = await seedSigningWorkRequest(server);
    const worker = new DebusineClient({
      apiUrl: server.apiUrl,
      token: signing.token,
      scope: server.scope,
    });
    try {
      await worker.workRequestCompletedUpdate(signing.workRequestId, {
        result: 'success',
        output_data: {},
      });
    } finally {
      await worker.close();
    }
    // 0.16 applies the update in a Celery task: wait for it.
    const done = await waitForCompletion(owner, signing.workRequestId, 60_000);
    expect(done.status).toBe('completed');
    expect(done.result).toBe('success');
  });
});
