/**
 * `POST /staging?name=…`: the browser streams a dropped file here and gets back a staged
 * file id; the path stays in main. Files land in the host's own temporary directory under
 * a random name, so the name the page sends is only a label.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { StagedFiles } from '../service/staged-files';
import { DebusineError, serializeError } from '../../shared/errors';

/** Generous: source tarballs and .debs are large, but not unbounded. */
export const MAX_STAGED_BYTES = 8 * 1024 ** 3;

export function safeLabel(name: string | null): string | null {
  if (name === null) return null;
  const label = name.trim();
  if (!label || label.length > 255 || /[/\\\0]/.test(label) || label === '.' || label === '..') {
    return null;
  }
  return label;
}

export async function handleStagingUpload(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  files: StagedFiles,
  dir: string,
): Promise<void> {
  const reply = (status: number, body: unknown): void => {
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  };
  const name = safeLabel(url.searchParams.get('name'));
  if (name === null) {
    reply(400, {
      ok: false,
      error: serializeError(new DebusineError('validation', 'Bad file name')),
    });
    return;
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > MAX_STAGED_BYTES) {
    reply(413, {
      ok: false,
      error: serializeError(new DebusineError('validation', 'File too large')),
    });
    return;
  }
  const path = join(dir, randomUUID());
  let received = 0;
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > MAX_STAGED_BYTES) req.destroy(new Error('File too large'));
  });
  try {
    await pipeline(req, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
    const staged = await files.add(path, { name, owned: true });
    reply(200, { ok: true, result: staged });
  } catch (error) {
    await rm(path, { force: true });
    if (!res.headersSent) reply(400, { ok: false, error: serializeError(error) });
  }
}
