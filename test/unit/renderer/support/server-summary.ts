import type { ServerSummary } from '@shared/contract';

/** A server profile as main describes it to the renderer; `fields` say what differs. */
export function serverSummary(fields: Partial<ServerSummary> = {}): ServerSummary {
  return {
    id: 'server-a',
    name: 'Server A',
    apiUrl: 'https://a.example/api',
    scope: 'debusine',
    defaultWorkspace: 'System',
    hasToken: true,
    ...fields,
  };
}
