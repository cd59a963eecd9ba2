/**
 * One completion of one work request: its id and the server's `completed_at`, as the
 * server sent it. A work request that is retried in place (a workflow) completes again
 * with another `completed_at`, which is another completion. The watcher counts each once
 * by it, and a notification of it is named by it.
 */
export function completionKey(workRequestId: number, completedAt: string): string {
  return `${String(workRequestId)}@${completedAt}`;
}
