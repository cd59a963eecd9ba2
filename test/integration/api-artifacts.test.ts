import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { LocalArtifact } from '../../src/main/artifacts';
import { uploadArtifact } from '../../src/main/artifacts/transfer/upload-engine';
import { artifactWebPath, webFilePath } from '../../src/shared/web-paths';
import { rejection, unique, createNoop } from '../support/clients';
import { describeOnEachServer } from '../support/on-each-server';

const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');

describeOnEachServer(
  'artifacts, relations, assets on the %s server',
  ({ flavour, server, client }) => {
    const workspace = server.workspaces.default;

    // Empty files need no upload, so the artifact is complete at once (relations need that).
    async function newArtifact(name: string) {
      return client.artifactCreate({
        category: 'debusine:test',
        workspace,
        files: {
          [`${name}.txt`]: { size: 0, checksums: { sha256: EMPTY_SHA256 }, type: 'file' },
        },
        data: {},
      });
    }

    it('artifactCreate and artifactGet', async () => {
      const name = unique('file');
      const created = await newArtifact(name);
      expect(created.category).toBe('debusine:test');
      expect(created.workspace).toBe(workspace);
      expect(created.files_to_upload).toEqual([]);
      const got = await client.artifactGet(created.id);
      expect(got.id).toBe(created.id);
      const file = got.files[`${name}.txt`];
      expect(file?.size).toBe(0);
      expect(file?.checksums.sha256).toBe(EMPTY_SHA256);
      expect(file?.url).toMatch(/^https?:\/\//);
      expect(got.download_tar_gz_url).toContain(`/artifact/${String(created.id)}/`);
      if (flavour === 'current') {
        expect(got.url).toBe(`/${server.scope}/${workspace}/artifact/${String(created.id)}/`);
        expect(got.links.self).toBeDefined();
      } else {
        expect(got.url).toBeUndefined();
      }
    });

    it('artifactGet of a missing artifact is not-found', async () => {
      const error = await rejection(client.artifactGet(999_999_999));
      expect(error.code).toBe('not-found');
      expect(error.details.status).toBe(404);
    });

    it('relationCreate (twice: the existing one counts as success) and relationList', async () => {
      const source = await newArtifact(unique('src'));
      const target = await newArtifact(unique('dst'));
      const first = await client.relationCreate({
        artifact: source.id,
        target: target.id,
        type: 'relates-to',
      });
      expect(first).toMatchObject({ artifact: source.id, target: target.id, type: 'relates-to' });
      const again = await client.relationCreate({
        artifact: source.id,
        target: target.id,
        type: 'relates-to',
      });
      expect(again.id).toBe(first.id);
      const from = await client.relationList({ artifactId: source.id });
      expect(from.map((r) => r.id)).toEqual([first.id]);
      const to = await client.relationList({ targetId: target.id });
      expect(to.map((r) => r.id)).toEqual([first.id]);
    });

    it('relationList wants exactly one of artifactId and targetId', async () => {
      expect((await rejection(client.relationList({}))).code).toBe('validation');
      expect((await rejection(client.relationList({ artifactId: 1, targetId: 2 }))).code).toBe(
        'validation',
      );
    });

    it('assetCreate and assetList (by id, by workspace)', async () => {
      const fingerprint = randomBytes(20).toString('hex').toUpperCase();
      const publicKey =
        flavour === 'current'
          ? Buffer.from(`key ${fingerprint}`).toString('base64')
          : `key ${fingerprint}`;
      const request = {
        category: 'debusine:signing-key',
        workspace,
        data: { purpose: 'openpgp', fingerprint, public_key: publicKey, description: null },
      };
      if (flavour === 'earlier') {
        // 0.11 lets only scope owners (and signing workers) create assets; the sandbox's
        // owner owns the workspaces, not the scope: the real refusal, a bare 403 "Error".
        const refused = await rejection(client.assetCreate(request));
        expect(refused.code).toBe('forbidden');
        expect(refused.details.status).toBe(403);
        expect(await client.assetList({ workspace })).toEqual(expect.any(Array));
        return;
      }
      const asset = await client.assetCreate(request);
      expect(asset.category).toBe('debusine:signing-key');
      expect(asset.workspace).toBe(workspace);
      expect(asset.data.fingerprint).toBe(fingerprint);
      const byId = await client.assetList({ assetId: asset.id });
      expect(byId.map((a) => a.id)).toEqual([asset.id]);
      const inWorkspace = await client.assetList({ workspace });
      expect(inWorkspace.map((a) => a.id)).toContain(asset.id);
      // Creating the same key again is get-or-create on the server: same asset.
      const again = await client.assetCreate(request);
      expect(again.id).toBe(asset.id);
    });

    it('assetList without a filter: the server refuses', async () => {
      expect((await rejection(client.assetList())).code).toBe('validation');
    });

    it('assetPermissionCheck: refused for a user token (needs a signing work request token)', async () => {
      const artifact = await newArtifact(unique('perm'));
      const wr = await createNoop(client);
      const error = await rejection(
        client.assetPermissionCheck({
          asset_category: 'debusine:signing-key',
          asset_slug: 'openpgp:0000',
          permission_name: 'sign_with',
          artifact_id: artifact.id,
          work_request_id: wr.id,
          workspace,
        }),
      );
      if (flavour === 'current') {
        // Only a running signing work request's token may ask.
        expect(error.code).toBe('forbidden');
        expect(error.details.status).toBe(403);
      } else {
        // 0.11 looks the asset up first (and the sandbox cannot create one, see above).
        expect(error.code).toBe('not-found');
        expect(error.details.title).toBe('Asset matching query does not exist.');
      }
    });

    // "Open in browser" of the log viewer: the file's page on the server's web UI, from
    // the artifact's `url` (0.16) or its fields (0.11 sends no `url`).
    it("a file's web page, as the viewer opens it, is the server's page of that file", async () => {
      const dir = mkdtempSync(join(tmpdir(), 'web-page-'));
      try {
        const name = `build_${unique('amd64')}.log`;
        writeFileSync(join(dir, 'log'), 'first line of the log\n');
        const local = new LocalArtifact('debusine:work-request-debug-logs', {});
        local.files.set(`logs/${name}`, join(dir, 'log'));
        const { id } = await uploadArtifact(client, local, { workspace });
        const artifact = await client.artifactGet(id);
        const page = artifactWebPath(artifact, server.scope);
        const url = client.webuiUrl(webFilePath(page, `logs/${name}`));
        const response = await fetch(url);
        expect(response.status, url).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        const html = await response.text();
        expect(html).toContain(name);
        expect(html).toContain('first line of the log');
        // The artifact's own page, too (the artifact page's "Open in browser").
        expect((await fetch(client.webuiUrl(page))).status).toBe(200);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
