/**
 * Runs one app upload in its own process, so that its memory can be read: prints one JSON
 * line with VmHWM (peak RSS) before and after, and the time taken.
 * Usage: jiti bench/rss-child.ts <apiUrl> <scope> <workspace> <file>  (token in BENCH_TOKEN)
 */
import { DebusineClient } from '../src/main/api/client';
import { LocalArtifact, uploadArtifact } from '../src/main/artifacts';
import { BENCH_CATEGORY } from './lib/server';
import { ownMemory, reportMemory } from './lib/own-memory';

const [apiUrl, scope, workspace, file] = process.argv.slice(2);
if (!apiUrl || !scope || !workspace || !file)
  throw new Error('usage: rss-child.ts api scope ws file');
const client = new DebusineClient({ apiUrl, scope, token: process.env.BENCH_TOKEN });
await client.whoami();
const before = ownMemory();
const artifact = new LocalArtifact(BENCH_CATEGORY);
await artifact.addLocalFile(file);
const start = process.hrtime.bigint();
let progressEvents = 0;
const result = await uploadArtifact(client, artifact, {
  workspace,
  onProgress: () => {
    progressEvents++;
  },
});
const ms = Number(process.hrtime.bigint() - start) / 1e6;
await client.close();
reportMemory(before, {
  ms,
  uploaded: result.uploaded.length,
  progressEvents,
});
