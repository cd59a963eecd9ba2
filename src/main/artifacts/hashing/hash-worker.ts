/**
 * MD5 on a second thread. A .dsc or .changes lists md5, sha1 and sha256 for each file, and
 * MD5 costs about 2.4 times SHA-256 on a CPU with SHA extensions (which speed up SHA-1 and
 * SHA-256, not MD5), so hashing all three on the main thread takes over three times as
 * long as the SHA-256 alone. Here a worker hashes the MD5 of each chunk while the main
 * thread hashes the others of the same chunk: both read the same buffers (shared memory),
 * so the file is still read once, and on two cores the pass takes about as long as its MD5.
 *
 * One worker serves every file, started on first use; it keeps the process alive only
 * while it has work. Its code is a string (eval), so that it needs no file of its own in
 * the bundles of the app and the web host.
 */
import { Worker } from 'node:worker_threads';

// getBuiltinModule works whether the script runs as CommonJS or, when the process was
// started with --input-type=module (which workers inherit), as a module without require.
const SOURCE = `
const load = (name) => (process.getBuiltinModule ? process.getBuiltinModule(name) : require(name));
const { parentPort } = load('node:worker_threads');
const { createHash } = load('node:crypto');
const jobs = new Map();
parentPort.on('message', (m) => {
  if (m.op === 'start') {
    jobs.set(m.job, { hashes: m.algorithms.map((a) => createHash(a)), algorithms: m.algorithms, views: m.buffers.map((b) => new Uint8Array(b)) });
    return;
  }
  const job = jobs.get(m.job);
  if (!job) return;
  if (m.op === 'chunk') {
    const data = job.views[m.slot].subarray(0, m.length);
    for (const hash of job.hashes) hash.update(data);
    parentPort.postMessage({ job: m.job, op: 'ack', slot: m.slot });
  } else if (m.op === 'end') {
    jobs.delete(m.job);
    const digests = {};
    job.algorithms.forEach((a, i) => { digests[a] = job.hashes[i].digest('hex'); });
    parentPort.postMessage({ job: m.job, op: 'done', digests });
  } else if (m.op === 'drop') {
    jobs.delete(m.job);
  }
});
`;

/** Algorithms worth a second thread; the others stay on the main one. */
export const OFFLOADED = ['md5'];

interface Reply {
  job: number;
  op: 'ack' | 'done';
  slot?: number;
  digests?: Record<string, string>;
}

interface Pending {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

let worker: Worker | undefined;
let nextJob = 0;
let active = 0;
/** Per job, the answers awaited, in the order the worker sends them (it keeps order). */
const waiting = new Map<number, Pending[]>();

function failAll(error: Error): void {
  worker = undefined;
  active = 0;
  for (const queue of waiting.values()) for (const p of queue) p.reject(error);
  waiting.clear();
}

function theWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(SOURCE, { eval: true });
  started.on('message', (reply: Reply) => waiting.get(reply.job)?.shift()?.resolve(reply));
  started.on('error', failAll);
  started.on('exit', (code) => {
    if (worker === started) failAll(new Error(`the hashing worker stopped (${String(code)})`));
  });
  started.unref();
  worker = started;
  return started;
}

/** One file's hashing on the worker, over `slots` shared buffers of `chunk` bytes. */
export interface SideHash {
  buffers: Buffer[];
  /** Hands over the chunk in `slot`; resolves when the worker is done with that buffer. */
  feed(slot: number, length: number): Promise<void>;
  finish(): Promise<Record<string, string>>;
  /** Abandons the job (after an error); its buffers may be reused at once. */
  drop(): void;
}

export function sideHash(algorithms: string[], slots: number, chunk: number): SideHash {
  const target = theWorker();
  const job = nextJob++;
  const shared = Array.from({ length: slots }, () => new SharedArrayBuffer(chunk));
  const queue: Pending[] = [];
  waiting.set(job, queue);
  if (active++ === 0) target.ref();
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    waiting.delete(job);
    // failAll may have counted this job out already.
    active = Math.max(0, active - 1);
    if (active === 0) worker?.unref();
  };
  const answer = () => new Promise<Reply>((resolve, reject) => queue.push({ resolve, reject }));
  target.postMessage({ op: 'start', job, algorithms, buffers: shared });
  return {
    buffers: shared.map((b) => Buffer.from(b)),
    feed: async (slot, length) => {
      const reply = answer();
      target.postMessage({ op: 'chunk', job, slot, length });
      await reply;
    },
    finish: async () => {
      const reply = answer();
      target.postMessage({ op: 'end', job });
      try {
        return (await reply).digests ?? {};
      } finally {
        close();
      }
    },
    drop: () => {
      if (open) target.postMessage({ op: 'drop', job });
      close();
    },
  };
}
