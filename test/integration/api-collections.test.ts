import { expect, it } from 'vitest';
import { collect } from '../../src/main/api/pagination';
import { inheritanceElementsMatch } from '../../src/shared/models';
import { rejection, unique } from '../support/clients';
import { describeOnEachServer } from '../support/on-each-server';

describeOnEachServer(
  'collections and workspaces on the %s server',
  ({ flavour, server, client }) => {
    const workspace = server.workspaces.second ?? server.workspaces.default;

    it.runIf(flavour === 'current')(
      'collectionCreate, Get, Iter (across pages), Update, items, Delete',
      async () => {
        const names: string[] = [];
        for (let i = 0; i < 11; i++) names.push(unique(`suite${String(i)}`));
        const created = [];
        for (const name of names) {
          created.push(
            await client.collectionCreate(workspace, {
              name,
              category: 'debian:suite',
              data: { components: ['main'] },
              full_history_retention_period: 7,
            }),
          );
        }
        const first = created[0];
        if (!first) throw new Error('no collection');
        expect(first).toMatchObject({ name: names[0], category: 'debian:suite' });
        expect(first.full_history_retention_period).toBe(7);
        const got = await client.collectionGet(workspace, 'debian:suite', first.name);
        expect(got.id).toBe(first.id);
        expect(got.data).toEqual({ components: ['main'] });
        // 11 new ones and the page size of 10: the listing spans pages.
        const listed = await collect(client.collectionIter(workspace));
        for (const c of created) expect(listed.map((l) => l.id)).toContain(c.id);
        const updated = await client.collectionUpdate(workspace, {
          id: first.id,
          data: { components: ['main', 'contrib'] },
          metadata_only_retention_period: 30,
        });
        expect(updated.data).toEqual({ components: ['main', 'contrib'] });
        expect(updated.metadata_only_retention_period).toBe(30);
        expect(updated.name).toBe(first.name);
        expect(
          await collect(client.collectionItemIter(workspace, 'debian:suite', first.name)),
        ).toEqual([]);
        const missingItem = await rejection(
          client.collectionItemGet(workspace, 'debian:suite', first.name, 'nope'),
        );
        expect(missingItem.code).toBe('not-found');
        for (const c of created) await client.collectionDelete(workspace, c.id);
        const gone = await rejection(client.collectionGet(workspace, 'debian:suite', first.name));
        expect(gone.code).toBe('not-found');
      },
    );

    it.runIf(flavour === 'current')('collectionCreate of a duplicate is refused', async () => {
      const name = unique('dup');
      const c = await client.collectionCreate(workspace, {
        name,
        category: 'debian:suite',
        data: {},
      });
      const error = await rejection(
        client.collectionCreate(workspace, { name, category: 'debian:suite', data: {} }),
      );
      expect(error.code).toBe('validation');
      await client.collectionDelete(workspace, c.id);
    });

    it.runIf(flavour === 'earlier')(
      'collections are unsupported on 0.11, with the server named',
      async () => {
        for (const call of [
          client.collectionCreate(workspace, { name: 'x', category: 'debian:suite', data: {} }),
          client.collectionGet(workspace, 'debian:suite', 'x'),
          collect(client.collectionIter(workspace)),
          client.collectionUpdate(workspace, { id: 1, data: {} }),
          client.collectionDelete(workspace, 1),
          client.fetchTaskConfigurationCollection(workspace, 'default'),
          client.pushTaskConfigurationCollection(workspace, {
            collection: { id: 1, name: 'default', data: {} },
            items: [],
          }),
          client.getWorkspaceInheritance(workspace),
          client.setWorkspaceInheritance(workspace, { chain: [] }),
        ]) {
          const error = await rejection(call);
          expect(error.code).toBe('unsupported');
          expect(error.details.server).toBe(server.apiUrl);
          expect(error.message).toContain('Debusine 0.11');
        }
      },
    );

    it.runIf(flavour === 'current')(
      'fetch and push a task configuration collection (dry run, then for real)',
      async () => {
        const name = unique('taskcfg');
        const collection = await client.collectionCreate(workspace, {
          name,
          category: 'debusine:task-configuration',
          data: {},
        });
        const empty = await client.fetchTaskConfigurationCollection(workspace, name);
        expect(empty.collection).toMatchObject({ id: collection.id, name });
        expect(empty.items).toEqual([]);
        const item = {
          task_type: 'Worker',
          task_name: 'noop',
          subject: null,
          context: null,
          default_values: { result: true },
          comment: 'from the desktop client tests',
        };
        const contents = { collection: { id: collection.id, name, data: {} }, items: [item] };
        const dry = await client.pushTaskConfigurationCollection(workspace, contents, {
          dryRun: true,
        });
        expect(dry).toMatchObject({ added: 1, updated: 0, removed: 0, unchanged: 0 });
        expect((await client.fetchTaskConfigurationCollection(workspace, name)).items).toEqual([]);
        const real = await client.pushTaskConfigurationCollection(workspace, contents);
        expect(real).toMatchObject({ added: 1, updated: 0, removed: 0, unchanged: 0 });
        const fetched = await client.fetchTaskConfigurationCollection(workspace, name);
        expect(fetched.items).toHaveLength(1);
        expect(fetched.items[0]).toMatchObject({ task_name: 'noop', comment: item.comment });
        const changed = await client.pushTaskConfigurationCollection(workspace, {
          ...contents,
          items: [{ ...item, comment: 'changed' }],
        });
        expect(changed).toMatchObject({ added: 0, updated: 1, removed: 0, unchanged: 0 });
        const same = await client.pushTaskConfigurationCollection(workspace, {
          ...contents,
          items: [{ ...item, comment: 'changed' }],
        });
        expect(same).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 1 });
        await client.collectionDelete(workspace, collection.id);
      },
    );

    it.runIf(flavour === 'current')(
      'getWorkspaceInheritance and setWorkspaceInheritance',
      async () => {
        const before = await client.getWorkspaceInheritance(workspace);
        try {
          const set = await client.setWorkspaceInheritance(workspace, {
            chain: [{ workspace: server.workspaces.default }],
          });
          expect(set.chain).toHaveLength(1);
          const element = set.chain[0];
          if (!element) throw new Error('empty chain');
          // The server fills in the id and the scope.
          expect(element.id).toEqual(expect.any(Number));
          expect(element.scope).toBe(server.scope);
          expect(
            inheritanceElementsMatch(element, {
              id: null,
              scope: null,
              workspace: server.workspaces.default,
            }),
          ).toBe(true);
          const got = await client.getWorkspaceInheritance(workspace);
          expect(got.chain).toEqual(set.chain);
          // A cycle is refused by the server.
          const cycle = await rejection(
            client.setWorkspaceInheritance(workspace, { chain: [{ workspace }] }),
          );
          expect(cycle.code).toBe('validation');
        } finally {
          await client.setWorkspaceInheritance(workspace, { chain: before.chain });
        }
      },
    );
  },
);
