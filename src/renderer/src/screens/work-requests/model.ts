import type { WorkRequestResponse } from '@shared/contract';
import { isActive as isActiveStatus, isRetriable } from '@shared/results/end';
import type { ListFilters } from './views-store';

/** Pure helpers over work requests: what can be done with one, how to describe it. */

/** The server retries only work requests that were aborted or completed unsuccessfully. */
export function canRetry(wr: Pick<WorkRequestResponse, 'status' | 'result'>): boolean {
  return isRetriable(wr);
}

/** The server aborts only work requests that are pending, blocked or running. */
export function canAbort(wr: Pick<WorkRequestResponse, 'status'>): boolean {
  return isActiveStatus(wr.status);
}

export function isActive(wr: Pick<WorkRequestResponse, 'status'>): boolean {
  return isActiveStatus(wr.status);
}

/** A Wait step the user can act on: external signing, a confirmation, a manual unblock. */
export type WaitingKind = 'sign' | 'confirm' | 'unblock' | null;

export function waitingKind(
  wr: Pick<WorkRequestResponse, 'status' | 'task_type' | 'task_name'>,
): WaitingKind {
  const name = wr.task_name.toLowerCase();
  if (wr.task_type === 'Wait' && wr.status === 'running') {
    if (name === 'externaldebsign') return 'sign';
    if (name === 'confirm') return 'confirm';
  }
  if (wr.status === 'blocked') return 'unblock';
  return null;
}

/** A Wait step for an external signature, whatever its state. */
export function isExternalDebsign(
  wr: Pick<WorkRequestResponse, 'task_type' | 'task_name'>,
): boolean {
  return wr.task_type === 'Wait' && wr.task_name.toLowerCase() === 'externaldebsign';
}

/** The Debusine CLI's equivalent of a page or an action (0.16 "object verb" syntax). */
export function cliCommand(
  verb: 'show' | 'retry' | 'abort' | 'sign' | 'priority',
  id: number,
  value?: number,
): string {
  switch (verb) {
    case 'priority':
      return `debusine work-request manage ${String(id)} --set-priority-adjustment ${String(value ?? 0)}`;
    default:
      return `debusine work-request ${verb} ${String(id)}`;
  }
}

/** Who is signed in, and the creators' names the server gave with the pages. */
export interface Me {
  username: string | null;
  userId: number | null;
  /** Usernames by user id (WorkRequestPage.creators). */
  creators: Readonly<Record<string, string>>;
}

export const NOBODY: Me = { username: null, userId: null, creators: {} };

/** The creator's username, where the server named it. */
export function creatorName(
  wr: Pick<WorkRequestResponse, 'created_by'>,
  me: Pick<Me, 'creators'>,
): string | undefined {
  return typeof wr.created_by === 'number' ? me.creators[String(wr.created_by)] : undefined;
}

/** Whether the signed-in user created this work request, as far as the app can tell. */
export function isMine(wr: Pick<WorkRequestResponse, 'created_by'>, me: Me): boolean {
  if (typeof wr.created_by !== 'number') return false;
  if (me.userId !== null && wr.created_by === me.userId) return true;
  return me.username !== null && creatorName(wr, me) === me.username;
}

/**
 * Whether "mine" can be told on this server: the app knows the user's id, or the server
 * names creators (0.12+). Otherwise a "mine" filter would hide everything for no reason.
 */
export function canTellMine(me: Me, loaded: readonly WorkRequestResponse[]): boolean {
  if (me.userId !== null) return true;
  return loaded.some((wr) => creatorName(wr, me) !== undefined);
}

/** Client-side filters over loaded rows: mine, result, task name, workspace, text search. */
export function matchesFilters(
  wr: WorkRequestResponse,
  filters: ListFilters,
  me: Me = NOBODY,
): boolean {
  if (filters.mine && !isMine(wr, me)) return false;
  if (filters.result && wr.result !== filters.result) return false;
  if (filters.taskName && wr.task_name !== filters.taskName) return false;
  if (filters.workspace && wr.workspace !== filters.workspace) return false;
  const q = filters.search.trim().toLowerCase();
  if (q) {
    const hay = [
      String(wr.id),
      wr.task_name,
      wr.task_type,
      wr.workspace,
      wr.status,
      wr.result,
      creatorName(wr, me) ?? '',
      JSON.stringify(wr.task_data),
    ]
      .join(' ')
      .toLowerCase();
    if (!q.split(/\s+/).every((word) => hay.includes(word))) return false;
  }
  return true;
}

/** "sbuild · amd64 · hello_1.0" style summary of task data, for a list row. */
export function taskSummary(wr: Pick<WorkRequestResponse, 'task_data'>): string {
  const data = wr.task_data;
  const parts: string[] = [];
  for (const key of ['host_architecture', 'architecture', 'backend', 'vendor', 'codename']) {
    const v = data[key];
    if (typeof v === 'string' || typeof v === 'number') parts.push(String(v));
  }
  const input = data.input;
  if (input && typeof input === 'object') {
    for (const v of Object.values(input as Record<string, unknown>)) {
      if (typeof v === 'string' || typeof v === 'number') parts.push(String(v));
      if (parts.length > 4) break;
    }
  }
  if (typeof data.result === 'string' || typeof data.result === 'boolean') {
    parts.push(`result=${String(data.result)}`);
  }
  return parts.join(' · ');
}

/** The workflow a step belongs to; null for a root (whose workflow_root is itself) or a lone task. */
export function rootOf(wr: Pick<WorkRequestResponse, 'id' | 'workflow_root'>): number | null {
  return wr.workflow_root != null && wr.workflow_root !== wr.id ? wr.workflow_root : null;
}

/** A running task streams its output (Debusine 0.16 and later): its live log can be followed. */
export function hasLiveLog(wr: Pick<WorkRequestResponse, 'status' | 'task_type'>): boolean {
  return wr.status === 'running' && wr.task_type === 'Worker';
}
