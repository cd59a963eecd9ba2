/** Workspace inheritance (0.12+) and web UI addresses. */
import { DebusineError } from '../../shared/errors';
import {
  workspaceInheritanceChainSchema,
  type WorkspaceInheritanceChainInput,
} from '../../shared/models';
import { seg } from './pagination';
import { endpoint } from './endpoint';
import { parseRequest, requireName } from './validate';

const inheritance = (workspace: string): string => `/workspace/${seg(workspace)}/inheritance/`;

export const getWorkspaceInheritance = endpoint(
  'getWorkspaceInheritance',
  {
    method: 'GET',
    feature: 'workspaceInheritance',
    argumentsFirst: true,
    schema: workspaceInheritanceChainSchema,
  },
  (op, workspace: string) => ({ path: inheritance(requireName(op, workspace, 'workspace')) }),
);

/** Replaces the whole chain (order matters: earlier elements are searched first). */
export const setWorkspaceInheritance = endpoint(
  'setWorkspaceInheritance',
  {
    method: 'POST',
    feature: 'workspaceInheritance',
    argumentsFirst: true,
    // Setting the same chain twice gives the same result.
    idempotent: true,
    schema: workspaceInheritanceChainSchema,
  },
  (op, workspace: string, chain: WorkspaceInheritanceChainInput) => {
    const path = inheritance(requireName(op, workspace, 'workspace'));
    const parsed = parseRequest(op, workspaceInheritanceChainSchema, chain);
    // Unset components are left out: the server fills the scope in with the current one.
    const body = {
      chain: parsed.chain.map((e) =>
        Object.fromEntries(Object.entries(e).filter(([, v]) => v !== null)),
      ),
    };
    return { path, body };
  },
);

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
