/**
 * The server profile renderer tests make active: one fixed, signed-in profile, so that a
 * test's expectations about which server's data shows can name it.
 */
import type { ServerSummary } from '@shared/contract';

export const SERVER_A: ServerSummary = {
  id: 'server-a',
  name: 'Server A',
  apiUrl: 'https://a.example/api',
  scope: 'debusine',
  defaultWorkspace: 'System',
  hasToken: true,
};
