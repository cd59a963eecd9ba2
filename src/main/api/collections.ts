/** Collections, their items, and task configuration collections (0.13+; task config 0.12+). */
import {
  collectionDataNewSchema,
  collectionDataSchema,
  collectionItemSchema,
  collectionUpdateRequestSchema,
  taskConfigurationCollectionContentsSchema,
  taskConfigurationCollectionUpdateResultsSchema,
  taskConfigurationPushRequestSchema,
  type CollectionDataNew,
  type CollectionUpdateRequest,
  type TaskConfigurationPushRequest,
} from '../../shared/models';
import { endpoint, listing } from './endpoint';
import { seg } from './pagination';
import { parseRequest, requireId, requireName } from './validate';

const base = (workspace: string): string => `/collection/${seg(workspace)}/`;

export const collectionCreate = endpoint(
  'collectionCreate',
  { method: 'POST', feature: 'collections', expect: [201], schema: collectionDataSchema },
  (op, workspace: string, data: CollectionDataNew) => ({
    body: parseRequest(op, collectionDataNewSchema, data),
    path: base(requireName(op, workspace, 'workspace')),
  }),
);

export const collectionGet = endpoint(
  'collectionGet',
  { method: 'GET', feature: 'collections', schema: collectionDataSchema },
  (_op, workspace: string, category: string, name: string) => ({
    path: `${base(workspace)}${seg(category)}/${seg(name)}/`,
  }),
);

export const collectionIter = listing(
  'collectionIter',
  'collections',
  collectionDataSchema,
  (workspace: string) => ({ path: base(workspace) }),
);

/** PATCH by id: fields left out keep their value; the category cannot change. */
export const collectionUpdate = endpoint(
  'collectionUpdate',
  { method: 'PATCH', feature: 'collections', schema: collectionDataSchema },
  (op, workspace: string, data: CollectionUpdateRequest) => {
    const { id, ...body } = parseRequest(op, collectionUpdateRequestSchema, data);
    return { path: `${base(workspace)}${String(id)}/`, body };
  },
);

export const collectionDelete = endpoint(
  'collectionDelete',
  { method: 'DELETE', feature: 'collections', expect: [204] },
  (op, workspace: string, id: number) => ({
    path: `${base(workspace)}${String(requireId(op, id))}/`,
  }),
);

export interface CollectionItemFilters {
  nameStartsWith?: string;
  category?: string;
}

/** Active items, by name. */
export const collectionItemIter = listing(
  'collectionItemIter',
  'collections',
  collectionItemSchema,
  (workspace: string, category: string, name: string, filters: CollectionItemFilters = {}) => ({
    path: `${base(workspace)}${seg(category)}/${seg(name)}/item/`,
    query: { name__startswith: filters.nameStartsWith, category: filters.category },
  }),
);

export const collectionItemGet = endpoint(
  'collectionItemGet',
  { method: 'GET', feature: 'collections', schema: collectionItemSchema },
  (_op, workspace: string, category: string, name: string, itemName: string) => ({
    path: `${base(workspace)}${seg(category)}/${seg(name)}/item/${seg(itemName)}/`,
  }),
);

const taskConfigPath = (workspace: string, name: string): string =>
  `/task-configuration/${seg(workspace)}/${seg(name)}/`;

export const fetchTaskConfigurationCollection = endpoint(
  'fetchTaskConfigurationCollection',
  {
    method: 'GET',
    feature: 'taskConfiguration',
    schema: taskConfigurationCollectionContentsSchema,
  },
  (_op, workspace: string, name: string) => ({ path: taskConfigPath(workspace, name) }),
);

/**
 * Replaces the collection's items with `contents.items`. With `dryRun` nothing changes but
 * the counts say what would (the server still records `collection.data.git_commit`).
 */
export const pushTaskConfigurationCollection = endpoint(
  'pushTaskConfigurationCollection',
  {
    method: 'POST',
    feature: 'taskConfiguration',
    schema: taskConfigurationCollectionUpdateResultsSchema,
  },
  (
    op,
    workspace: string,
    contents: TaskConfigurationPushRequest,
    options: { dryRun?: boolean } = {},
  ) => {
    const body = parseRequest(op, taskConfigurationPushRequestSchema, contents);
    return {
      path: taskConfigPath(workspace, body.collection.name),
      body: { ...body, dry_run: options.dryRun ?? false },
    };
  },
);
