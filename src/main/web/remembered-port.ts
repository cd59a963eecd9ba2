/**
 * The port the web host listened on last time, kept in the data directory and asked for
 * again. A browser keeps a page's permissions and storage per origin, port included: on a
 * new port each run, the notification permission granted yesterday would be asked for
 * again, and the app window's theme and session forgotten.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonFile } from '../json-file';

const portSchema = z.object({ port: z.number().int().min(1024).max(65535) });

function fileOf(dataDir: string): string {
  return join(dataDir, 'web-host.json');
}

/** The port of the last run, if it left a readable one. */
export async function rememberedPort(dataDir: string): Promise<number | undefined> {
  const raw = await readJsonFile(fileOf(dataDir)).catch(() => undefined);
  const parsed = portSchema.safeParse(raw);
  return parsed.success ? parsed.data.port : undefined;
}

export async function rememberPort(dataDir: string, port: number): Promise<void> {
  await writeJsonFile(fileOf(dataDir), { port }, 0o600);
}

/** Whether listening failed because another program has the port. */
export function portTaken(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
}
