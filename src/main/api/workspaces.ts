/** Workspace inheritance (0.12+) and web UI addresses. */
import { DebusineError } from '../../shared/errors';
import {
  workspaceInheritanceChainSchema,
  type WorkspaceInheritanceChain,
  type WorkspaceInheritanceChainInput,
} from '../../shared/models';
import { seg } from './pagination';
import type { ApiContext } from './revision';
import { parseRequest, requireName } from './validate';

const inheritance = (workspace: string): string => `/workspace/${seg(workspace)}/inheritance/`;

export async function getWorkspaceInheritance(
  ctx: ApiContext,
  workspace: string,
): Promise<WorkspaceInheritanceChain> {
  requireName('getWorkspaceInheritance', workspace, 'workspace');
  await ctx.require('getWorkspaceInheritance', 'workspaceInheritance');
  return ctx.request({
    operation: 'getWorkspaceInheritance',
    method: 'GET',
    path: inheritance(workspace),
    schema: workspaceInheritanceChainSchema,
  });
}

/** Replaces the whole chain (order matters: earlier elements are searched first). */
export async function setWorkspaceInheritance(
  ctx: ApiContext,
  workspace: string,
  chain: WorkspaceInheritanceChainInput,
): Promise<WorkspaceInheritanceChain> {
  const op = 'setWorkspaceInheritance';
  requireName(op, workspace, 'workspace');
  const parsed = parseRequest(op, workspaceInheritanceChainSchema, chain);
  await ctx.require(op, 'workspaceInheritance');
  return ctx.request({
    operation: op,
    method: 'POST',
    path: inheritance(workspace),
    // Unset components are left out: the server fills the scope in with the current one.
    body: {
      chain: parsed.chain.map((e) =>
        Object.fromEntries(Object.entries(e).filter(([, v]) => v !== null)),
      ),
    },
    // Setting the same chain twice gives the same result.
    idempotent: true,
    schema: workspaceInheritanceChainSchema,
  });
}

/**
 * The address of a web UI page: the site root (the API URL without its last `api`
 * component) plus `path`. The scope is not inserted: server-given paths (`url`,
 * `links.webui_self`) already hold it.
 */
export function webuiUrl(apiUrl: string, path: string): string {
  const api = new URL(apiUrl);
  const parts = api.pathname.split('/').filter((p) => p !== '');
  if (parts.at(-1) === 'api') parts.pop();
  const root = `${api.origin}/${parts.map((p) => `${p}/`).join('')}`;
  const url = new URL(path.replace(/^\/+/, ''), root);
  if (url.origin !== api.origin) {
    throw new DebusineError('validation', `webuiUrl: not a path on this server: ${path}`, {
      operation: 'webuiUrl',
      field: 'path',
    });
  }
  return url.toString();
}
