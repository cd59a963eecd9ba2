/**
 * What an upload left on the server, without what differs between two uploads of the same
 * files (ids, times, URLs): the upload's category, data and files (name, size, SHA-256),
 * and per relation type the same of every artifact it points to, sorted. Two uploads that
 * made the same artifacts and relations have equal states.
 */
import type { DebusineClient } from '../../src/main/api/client';
import type { ArtifactResponse } from '../../src/shared/contract';

export interface Shape {
  category: string;
  data: unknown;
  files: Record<string, { size: number; checksums: unknown }>;
}

export function shape(a: ArtifactResponse): Shape {
  return {
    category: a.category,
    data: a.data,
    files: Object.fromEntries(
      Object.entries(a.files).map(([name, f]) => [name, { size: f.size, checksums: f.checksums }]),
    ),
  };
}

export interface UploadState {
  upload: Shape;
  relations: Record<string, Shape[]>;
}

export async function uploadState(client: DebusineClient, uploadId: number): Promise<UploadState> {
  const upload = await client.artifactGet(uploadId);
  const relations = await client.relationList({ artifactId: uploadId });
  const byType: Record<string, Shape[]> = {};
  for (const r of relations) {
    const target = await client.artifactGet(r.target);
    (byType[r.type] ??= []).push(shape(target));
  }
  for (const list of Object.values(byType)) {
    list.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return { upload: shape(upload), relations: byType };
}
