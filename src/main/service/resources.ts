/**
 * Resources: artifacts, relations, assets, collections and their items, task
 * configuration, lookups, workflow templates, workspace inheritance and web links. Each
 * entry is one DebusineClient call; the client already speaks both server revisions.
 */
import type { ServiceHandlers } from '../bridge/dispatch';
import { DebusineError } from '../../shared/errors';
import type { CollectionItem } from '../../shared/models';
import { activeServerNamed, type SessionProvider } from './session';

type Handlers = Pick<
  ServiceHandlers,
  | 'workflowTemplates.list'
  | 'workflowTemplates.get'
  | 'workflowTemplates.create'
  | 'workflowTemplates.update'
  | 'workflowTemplates.delete'
  | 'artifacts.get'
  | 'relations.list'
  | 'relations.create'
  | 'assets.list'
  | 'assets.create'
  | 'assets.checkPermission'
  | 'collections.list'
  | 'collections.get'
  | 'collections.create'
  | 'collections.update'
  | 'collections.delete'
  | 'collections.items'
  | 'taskConfig.fetch'
  | 'taskConfig.push'
  | 'lookups.single'
  | 'lookups.multiple'
  | 'workspaces.getInheritance'
  | 'workspaces.setInheritance'
  | 'links.webui'
>;

async function drain<T>(items: AsyncIterable<T>, limit = Infinity): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}

export function resourceHandlers(session: SessionProvider): Handlers {
  const client = () => session.client();
  return {
    'workflowTemplates.list': async ({ workspace }) =>
      drain(client().workflowTemplateIter(workspace)),
    'workflowTemplates.get': async ({ workspace, template }) =>
      await client().workflowTemplateGet(workspace, template),
    'workflowTemplates.create': async ({ workspace, template }) =>
      await client().workflowTemplateCreate(workspace, template),
    // The task name of a template cannot change: the contract's update has no such field.
    'workflowTemplates.update': async ({ workspace, template }) =>
      await client().workflowTemplateUpdate(workspace, template),
    'workflowTemplates.delete': async ({ workspace, template }) => {
      await client().workflowTemplateDelete(workspace, template);
      return undefined;
    },
    'artifacts.get': async ({ id }) => await client().artifactGet(id),
    'relations.list': async (args) => await client().relationList(args),
    'relations.create': async (request) => await client().relationCreate(request),
    'assets.list': async (filters) => await client().assetList(filters ?? {}),
    'assets.create': async (request) => await client().assetCreate(request),
    'assets.checkPermission': async (a) =>
      await client().assetPermissionCheck({
        asset_category: a.assetCategory,
        asset_slug: a.assetSlug,
        permission_name: a.permissionName,
        artifact_id: a.artifactId,
        work_request_id: a.workRequestId,
        workspace: a.workspace,
      }),
    'collections.list': async ({ workspace }) => drain(client().collectionIter(workspace)),
    'collections.get': async ({ workspace, category, name }) =>
      await client().collectionGet(workspace, category, name),
    'collections.create': async ({ workspace, collection }) =>
      await client().collectionCreate(workspace, collection),
    'collections.update': async ({ workspace, collection }) =>
      await client().collectionUpdate(workspace, collection),
    'collections.delete': async ({ workspace, category, name, force }) => {
      const c = client();
      const collection = await c.collectionGet(workspace, category, name);
      if (!force) {
        const [first] = await drain(c.collectionItemIter(workspace, category, name), 1);
        if (first) {
          throw new DebusineError(
            'conflict',
            `${name}@${category} is not empty; delete it with force to remove it anyway`,
            { operation: 'collections.delete' },
          );
        }
      }
      await c.collectionDelete(workspace, collection.id);
      return undefined;
    },
    'collections.items': async ({ workspace, category, name, limit }): Promise<CollectionItem[]> =>
      drain(client().collectionItemIter(workspace, category, name), limit),
    'taskConfig.fetch': async ({ workspace, name }) =>
      await client().fetchTaskConfigurationCollection(workspace, name),
    'taskConfig.push': async ({ workspace, name, items, dryRun }) => {
      const c = client();
      const current = await c.fetchTaskConfigurationCollection(workspace, name);
      const { id, data } = current.collection;
      return await c.pushTaskConfigurationCollection(
        workspace,
        { collection: { id, name, data }, items },
        { dryRun },
      );
    },
    'lookups.single': async (request) => await client().lookupSingle(request),
    'lookups.multiple': async (request) => await client().lookupMultiple(request),
    'workspaces.getInheritance': async ({ workspace }) =>
      await client().getWorkspaceInheritance(workspace),
    'workspaces.setInheritance': async ({ workspace, chain }) =>
      await client().setWorkspaceInheritance(workspace, { chain }),
    'links.webui': async ({ server, path }) => {
      // The page asked for its own server's address: a switch made meanwhile (a deep link,
      // a notification) must not hand it the new server's.
      activeServerNamed(session, server, {
        rule: 'link-server',
        message: (active) =>
          `This page is of another server than the active one (${active}): its address is not given.`,
      });
      return Promise.resolve(client().webuiUrl(path));
    },
  };
}
