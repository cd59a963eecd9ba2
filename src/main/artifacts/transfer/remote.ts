/**
 * The two artifact endpoints transfers need, called through the client's
 * HTTP transport, so that this module does not depend on DebusineClient growing methods.
 */
import type { DebusineClient } from '../../api/client';
import { exchange } from '../../api/exchange';
import type { HttpTransport } from '../../api/http';
import {
  artifactResponseSchema,
  type ArtifactCreateRequest,
  type ArtifactResponse,
} from '../../../shared/models';

export type ClientLike = DebusineClient | HttpTransport;

export function transportOf(client: ClientLike): HttpTransport {
  return 'http' in client ? client.http : client;
}

export async function createArtifact(
  client: ClientLike,
  request: ArtifactCreateRequest,
  signal?: AbortSignal,
): Promise<ArtifactResponse> {
  // Nulls are left out: the server then uses its defaults (its default workspace), and
  // it ignores `expire_at` anyway (docs/debusine-server-facts.md).
  const body = Object.fromEntries(Object.entries(request).filter(([, value]) => value !== null));
  return exchange(transportOf(client), {
    operation: 'artifactCreate',
    method: 'POST',
    path: '/artifact/',
    body,
    expect: [201],
    schema: artifactResponseSchema,
    idempotent: false,
    ...(signal ? { signal } : {}),
  });
}

export async function getArtifact(
  client: ClientLike,
  id: number,
  signal?: AbortSignal,
): Promise<ArtifactResponse> {
  return exchange(transportOf(client), {
    operation: 'artifactGet',
    method: 'GET',
    path: `/artifact/${String(id)}/`,
    schema: artifactResponseSchema,
    ...(signal ? { signal } : {}),
  });
}

/** `PUT …/files/{path}/` quotes the path but keeps its slashes, like the Python client. */
export function fileUploadPath(artifactId: number, pathInArtifact: string): string {
  const quoted = pathInArtifact.split('/').map(encodeURIComponent).join('/');
  return `/artifact/${String(artifactId)}/files/${quoted}/`;
}
