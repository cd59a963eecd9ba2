/** Collections, their items, and task configuration collections (0.13+; task config 0.12+). */
import {
  collectionDataNewSchema,
  collectionDataSchema,
  collectionItemSchema,
  collectionUpdateRequestSchema,
  taskConfigurationCollectionContentsSchema,
  taskConfigurationCollectionUpdateResultsSchema,
  taskConfigurationPushRequestSchema,
  type CollectionData,
  type CollectionDataNew,
  type CollectionItem,
  type CollectionUpdateRequest,
  type TaskConfigurationCollectionContents,
  type TaskConfigurationCollectionUpdateResults,
  type TaskConfigurationPushRequest,
} from '../../shared/models';
import { paginate, seg } from './pagination';
import type { ApiContext } from './revision';
import { parseRequest, requireId, requireName } from './validate';

const base = (workspace: string): string => `/collection/${seg(workspace)}/`;

export async function collectionCreate(
  ctx: ApiContext,
  workspace: string,
  data: CollectionDataNew,
): Promise<CollectionData> {
  await ctx.require('collectionCreate', 'collections');
  const body = parseRequest('collectionCreate', collectionDataNewSchema, data);
  return ctx.request({
    operation: 'collectionCreate',
    method: 'POST',
    path: base(requireName('collectionCreate', workspace, 'workspace')),
    body,
    expect: [201],
    schema: collectionDataSchema,
  });
}

export async function collectionGet(
  ctx: ApiContext,
  workspace: string,
  category: string,
  name: string,
): Promise<CollectionData> {
  await ctx.require('collectionGet', 'collections');
  return ctx.request({
    operation: 'collectionGet',
    method: 'GET',
    path: `${base(workspace)}${seg(category)}/${seg(name)}/`,
    schema: collectionDataSchema,
  });
}

export async function* collectionIter(
  ctx: ApiContext,
  workspace: string,
): AsyncGenerator<CollectionData, void, undefined> {
  await ctx.require('collectionIter', 'collections');
  yield* paginate(ctx, 'collectionIter', base(workspace), collectionDataSchema);
}

/** PATCH by id: fields left out keep their value; the category cannot change. */
export async function collectionUpdate(
  ctx: ApiContext,
  workspace: string,
  data: CollectionUpdateRequest,
): Promise<CollectionData> {
  await ctx.require('collectionUpdate', 'collections');
  const { id, ...body } = parseRequest('collectionUpdate', collectionUpdateRequestSchema, data);
  return ctx.request({
    operation: 'collectionUpdate',
    method: 'PATCH',
    path: `${base(workspace)}${String(id)}/`,
    body,
    schema: collectionDataSchema,
  });
}

export async function collectionDelete(
  ctx: ApiContext,
  workspace: string,
  id: number,
): Promise<void> {
  await ctx.require('collectionDelete', 'collections');
  await ctx.request({
    operation: 'collectionDelete',
    method: 'DELETE',
    path: `${base(workspace)}${String(requireId('collectionDelete', id))}/`,
    expect: [204],
  });
}

export interface CollectionItemFilters {
  nameStartsWith?: string;
  category?: string;
}

/** Active items, by name. */
export async function* collectionItemIter(
  ctx: ApiContext,
  workspace: string,
  category: string,
  name: string,
  filters: CollectionItemFilters = {},
): AsyncGenerator<CollectionItem, void, undefined> {
  await ctx.require('collectionItemIter', 'collections');
  yield* paginate(
    ctx,
    'collectionItemIter',
    `${base(workspace)}${seg(category)}/${seg(name)}/item/`,
    collectionItemSchema,
    { name__startswith: filters.nameStartsWith, category: filters.category },
  );
}

export async function collectionItemGet(
  ctx: ApiContext,
  workspace: string,
  category: string,
  name: string,
  itemName: string,
): Promise<CollectionItem> {
  await ctx.require('collectionItemGet', 'collections');
  return ctx.request({
    operation: 'collectionItemGet',
    method: 'GET',
    path: `${base(workspace)}${seg(category)}/${seg(name)}/item/${seg(itemName)}/`,
    schema: collectionItemSchema,
  });
}

const taskConfigPath = (workspace: string, name: string): string =>
  `/task-configuration/${seg(workspace)}/${seg(name)}/`;

export async function fetchTaskConfigurationCollection(
  ctx: ApiContext,
  workspace: string,
  name: string,
): Promise<TaskConfigurationCollectionContents> {
  await ctx.require('fetchTaskConfigurationCollection', 'taskConfiguration');
  return ctx.request({
    operation: 'fetchTaskConfigurationCollection',
    method: 'GET',
    path: taskConfigPath(workspace, name),
    schema: taskConfigurationCollectionContentsSchema,
  });
}

/**
 * Replaces the collection's items with `contents.items`. With `dryRun` nothing changes but
 * the counts say what would (the server still records `collection.data.git_commit`).
 */
export async function pushTaskConfigurationCollection(
  ctx: ApiContext,
  workspace: string,
  contents: TaskConfigurationPushRequest,
  options: { dryRun?: boolean } = {},
): Promise<TaskConfigurationCollectionUpdateResults> {
  await ctx.require('pushTaskConfigurationCollection', 'taskConfiguration');
  const body = parseRequest(
    'pushTaskConfigurationCollection',
    taskConfigurationPushRequestSchema,
    contents,
  );
  return ctx.request({
    operation: 'pushTaskConfigurationCollection',
    method: 'POST',
    path: taskConfigPath(workspace, body.collection.name),
    body: { ...body, dry_run: options.dryRun ?? false },
    schema: taskConfigurationCollectionUpdateResultsSchema,
  });
}
