import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DebusineClient } from '../../src/main/api/client';
import { DebusineError } from '../../src/shared/errors';
import type { WorkflowTemplateData, WorkRequestResponse } from '../../src/shared/models';
import { SANDBOX_HOME, testServer, type Flavour, type TestServer } from './sandbox';

export function clientFor(
  server: TestServer,
  user: 'owner' | 'noRoles' | 'anonymous' = 'owner',
): DebusineClient {
  const token = user === 'anonymous' ? undefined : server.users[user]?.token;
  if (user !== 'anonymous' && !token) throw new Error(`The test server has no ${user} user`);
  return new DebusineClient({ apiUrl: server.apiUrl, token, scope: server.scope });
}

export function ownerClient(flavour: Flavour): DebusineClient {
  return clientFor(testServer(flavour), 'owner');
}

/** Starts a noop work request in the client's default workspace: the cheapest real work. */
export function createNoop(client: DebusineClient): Promise<WorkRequestResponse> {
  return client.workRequestCreate({ task_name: 'noop', task_data: {}, event_reactions: {} });
}

/** Creates a workflow template named `name` in `workspace` whose workflow is a noop. */
export function createNoopTemplate(
  client: DebusineClient,
  workspace: string,
  name: string,
): Promise<WorkflowTemplateData> {
  return client.workflowTemplateCreate(workspace, {
    name,
    task_name: 'noop',
    task_data: {},
    priority: 0,
  });
}

/** Polls a work request until it leaves pending/running/blocked, or fails after `ms`. */
export async function waitForCompletion(
  client: DebusineClient,
  id: number,
  ms = 90_000,
): Promise<WorkRequestResponse> {
  const deadline = Date.now() + ms;
  for (;;) {
    const wr = await client.workRequestGet(id);
    if (wr.status === 'completed' || wr.status === 'aborted') return wr;
    if (Date.now() > deadline) {
      throw new Error(`work request ${String(id)} still ${wr.status} after ${String(ms)} ms`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A short random suffix: the sandboxes live long, and names must not clash between runs. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * A client with the sandbox worker's own token (earlier servers: lookups and completion
 * updates need it), or undefined when the sandbox does not expose it.
 */
export function workerClientFor(server: TestServer): DebusineClient | undefined {
  if (!server.sandbox) return undefined;
  let token: string;
  try {
    token = readFileSync(
      join(SANDBOX_HOME, server.flavour, 'root/etc/debusine/worker/token'),
      'utf8',
    ).trim();
  } catch {
    return undefined;
  }
  return new DebusineClient({ apiUrl: server.apiUrl, token, scope: server.scope });
}

/** The DebusineError a call fails with; fails the test when it succeeds. */
export async function rejection(promise: Promise<unknown>): Promise<DebusineError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DebusineError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}
