/**
 * What personal APT repositories need beyond collections and templates: removing a suite's
 * item (the server then signs its indexes anew), the relations between suites, the viewer
 * tokens of a private archive or suite, and a workflow started by its task's name (copying
 * a package between suites has no template). All 0.16 paths; a server without them
 * answers 404, which the caller says in its own words.
 */
import { z } from 'zod';
import {
  collectionTokenGrantRequestSchema,
  collectionTokenGrantSchema,
  workRequestResponseSchema,
  type CollectionTokenGrantRequest,
  type WorkRequestResponse,
} from '../../shared/models';
import { endpoint, listing } from './endpoint';
import { seg } from './pagination';
import type { ApiContext } from './revision';
import { parseRequest, requireName } from './validate';

const collectionPath = (workspace: string, category: string, name: string): string =>
  `/collection/${seg(workspace)}/${seg(category)}/${seg(name)}/`;

/** Removes an item; removing a source package from a suite removes its binaries too. */
export const collectionItemDelete = endpoint(
  'collectionItemDelete',
  { method: 'DELETE', feature: 'collections', expect: [204] },
  (op, workspace: string, category: string, name: string, itemName: string) => ({
    path: `${collectionPath(
      requireName(op, workspace, 'workspace'),
      requireName(op, category, 'category'),
      requireName(op, name, 'name'),
    )}item/${seg(requireName(op, itemName, 'item'))}/`,
  }),
);

/** Suite relations the server knows (`CollectionRelationType`). */
export const SUITE_RELATION_TYPES = [
  'suite-requires',
  'suite-targeting',
  'suite-default-qa-results',
  'suite-based-on',
  'suite-forked-from',
] as const;
export type SuiteRelationType = (typeof SUITE_RELATION_TYPES)[number];

const relationTargetSchema = z.strictObject({
  name: z.string().min(1),
  category: z.string().min(1),
});
const relationTargetsSchema = z.looseObject({ targets: z.array(z.looseObject({})) });

/**
 * Replaces the targets of `source`'s relations of `type` (`source` as `name@category`).
 */
export const collectionRelationSet = endpoint(
  'collectionRelationSet',
  { method: 'PUT', feature: 'collections', expect: [200], schema: relationTargetsSchema },
  (
    op,
    workspace: string,
    source: string,
    type: SuiteRelationType,
    targets: readonly { name: string; category: string }[],
  ) => ({
    path: `/collection-relation/${seg(requireName(op, workspace, 'workspace'))}/${seg(
      requireName(op, source, 'source'),
    )}/${seg(parseRequest(op, z.enum(SUITE_RELATION_TYPES), type, 'type'))}/`,
    body: { targets: parseRequest(op, z.array(relationTargetSchema), targets, 'targets') },
  }),
);

/** The viewer tokens granted on an archive (`_`, debian:archive) or one of its suites. */
export const collectionTokenIter = listing(
  'collectionTokenIter',
  'collections',
  collectionTokenGrantSchema,
  (workspace: string, category: string, name: string) => ({
    path: `${collectionPath(workspace, category, name)}token/`,
  }),
);

/**
 * Grants `role` to a new token for `username` (an external user: no account needed), or to
 * an existing external user's token. The answer carries the token's key this once.
 */
export const collectionTokenGrant = endpoint(
  'collectionTokenGrant',
  { method: 'POST', feature: 'collections', expect: [201], schema: collectionTokenGrantSchema },
  (op, workspace: string, category: string, name: string, grant: CollectionTokenGrantRequest) => ({
    path: `${collectionPath(
      requireName(op, workspace, 'workspace'),
      requireName(op, category, 'category'),
      requireName(op, name, 'name'),
    )}token/`,
    body: parseRequest(op, collectionTokenGrantRequestSchema, grant),
  }),
);

export const collectionTokenRevoke = endpoint(
  'collectionTokenRevoke',
  { method: 'DELETE', feature: 'collections', expect: [204] },
  (op, workspace: string, category: string, name: string, tokenHash: string, role: string) => ({
    path: `${collectionPath(
      requireName(op, workspace, 'workspace'),
      requireName(op, category, 'category'),
      requireName(op, name, 'name'),
    )}token/${seg(parseRequest(op, z.string().regex(/^[0-9a-f]{64}$/), tokenHash, 'token'))}/${seg(
      requireName(op, role, 'role'),
    )}/`,
  }),
);

const workflowByTaskSchema = z.strictObject({
  task_name: z.string().min(1),
  workspace: z.string().min(1),
  task_data: z.record(z.string(), z.unknown()),
});

/**
 * Starts a workflow with no template, by its task's name: the server asks for the
 * workspace's owner role (a template only asks that its user may run it).
 */
export async function workflowCreateByTask(
  ctx: ApiContext,
  request: z.input<typeof workflowByTaskSchema>,
): Promise<WorkRequestResponse> {
  await ctx.require('workflowCreateByTask', 'workspaceTemplates');
  return ctx.request({
    operation: 'workflowCreateByTask',
    method: 'POST',
    path: '/workflow/',
    body: parseRequest('workflowCreateByTask', workflowByTaskSchema, request),
    expect: [200, 201],
    schema: workRequestResponseSchema,
  });
}
