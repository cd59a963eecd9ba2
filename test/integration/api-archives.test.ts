/**
 * The client's archive operations against real servers: suite relations, viewer tokens of a
 * private archive (whose key then opens it to apt's login over TLS), an item's removal, and a
 * workflow started by its task's name. On the current sandbox they act in a repository
 * workspace made from its `create-experiment` template; the earlier server has none of them.
 */
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'undici';
import { expect, it } from 'vitest';
import { collect } from '../../src/main/api/pagination';
import { rejection, unique, waitForCompletion } from '../support/clients';
import { publishAsTheyAre } from '../support/repositories';
import { describeOnEachServer } from '../support/on-each-server';

describeOnEachServer('archive operations on the %s server', ({ flavour, server, client }) => {
  const repo = server.repositories;

  it.runIf(flavour === 'earlier')('are unsupported, and send nothing', async () => {
    for (const error of [
      await rejection(client.collectionItemDelete('System', 'debian:suite', 'sid', 'hello_1')),
      await rejection(
        client.collectionRelationSet('System', 'sid@debian:suite', 'suite-requires', []),
      ),
      await rejection(collect(client.collectionTokenIter('System', 'debian:archive', '_'))),
      await rejection(
        client.workflowCreateByTask({ task_name: 'noop', workspace: 'System', task_data: {} }),
      ),
    ]) {
      expect(error.code).toBe('unsupported');
    }
  });

  it.runIf(flavour === 'current' && repo !== null)(
    'in a private repository: relations, viewer tokens, removals, a workflow by task',
    async () => {
      if (!repo) return;
      const suffix = unique('api');
      const made = await client.workflowCreate({
        template_name: repo.templates.experiment,
        workspace: repo.baseWorkspace,
        task_data: { suffix, public: false },
      });
      expect(await waitForCompletion(client, made.id, 120_000)).toMatchObject({
        result: 'success',
      });
      const workspace = `${repo.baseWorkspace}-${suffix}`;
      for (const name of ['sid', 'sid-proposed']) {
        await client.collectionCreate(workspace, {
          name,
          category: 'debian:suite',
          data: { components: ['main'], architectures: ['amd64'] },
        });
      }

      // A relation between the two suites, read back from the server.
      const set = await client.collectionRelationSet(
        workspace,
        'sid-proposed@debian:suite',
        'suite-based-on',
        [{ name: 'sid', category: 'debian:suite' }],
      );
      expect(set.targets).toEqual([expect.objectContaining({ name: 'sid' })]);

      // The indexes, made and signed, by a workflow with no template.
      await publishAsTheyAre(client, workspace);

      // A viewer token: its key is in the grant's answer only, and opens the archive to a
      // login over TLS; revoked, it opens nothing.
      const username = unique('viewer');
      const grant = await client.collectionTokenGrant(workspace, 'debian:archive', '_', {
        role: 'viewer',
        username,
        comment: 'api-archives test',
      });
      expect(grant).toMatchObject({ role: 'viewer', username });
      expect(grant.token_key).toMatch(/^[0-9a-f]{20,}$/);
      const listed = await collect(client.collectionTokenIter(workspace, 'debian:archive', '_'));
      expect(listed.map((t) => t.token_hash)).toContain(grant.token_hash);
      const tls = new Agent({ connect: { ca: await readFile(repo.caCertificate, 'utf8') } });
      const inRelease = async (): Promise<number> => {
        const answer = await request(
          `${repo.archiveTlsUrl}/${server.scope}/${workspace}/dists/sid/InRelease`,
          {
            headers: {
              authorization: `Basic ${btoa(`${username}:${grant.token_key ?? ''}`)}`,
            },
            dispatcher: tls,
          },
        );
        await answer.body.dump();
        return answer.statusCode;
      };
      try {
        expect(await inRelease()).toBe(200);
        await client.collectionTokenRevoke(
          workspace,
          'debian:archive',
          '_',
          grant.token_hash,
          'viewer',
        );
        const after = await collect(client.collectionTokenIter(workspace, 'debian:archive', '_'));
        expect(after.map((t) => t.token_hash)).not.toContain(grant.token_hash);
        expect(await inRelease()).not.toBe(200);
      } finally {
        await tls.close();
      }

      // Removing what a suite does not hold is the server's not-found.
      const missing = await rejection(
        client.collectionItemDelete(workspace, 'debian:suite', 'sid', 'hello_0.1'),
      );
      expect(missing.code).toBe('not-found');
    },
    360_000,
  );
});
