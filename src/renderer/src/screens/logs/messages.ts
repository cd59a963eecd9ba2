import { problemOf } from '@renderer/kit/errors/problem';

/** A failure as one sentence for the toolbar (the server's detail when it gave one). */
export function messageOf(error: unknown): string {
  const problem = problemOf(error);
  return problem.detail ? `${problem.title}: ${problem.detail}` : problem.title;
}
