/** Listing work requests: the app's iterator (page by page) vs the CLI's `work-request list`. */
import { cliList } from '../lib/baselines';
import type { BenchContext } from '../lib/context';
import { seedWorkRequests } from '../lib/seed';

export async function listWorkRequests(ctx: BenchContext): Promise<void> {
  const count = ctx.sizes.workRequests;
  const total = seedWorkRequests(ctx.server, count);
  ctx.log(`the server holds ${String(total)} work requests`);
  const scenario = `list ${String(count)} work requests`;
  await ctx.time(
    scenario,
    'app',
    async () => {
      let n = 0;
      for await (const wr of ctx.client.workRequestIter()) {
        if (wr.id < 0) throw new Error('unexpected id');
        if (++n >= count) break;
      }
      if (n < count) throw new Error(`listed ${String(n)} work requests`);
    },
    { note: 'workRequestIter, validated' },
  );
  await ctx.time(
    scenario,
    'Debusine CLI',
    () => {
      const out = cliList(ctx.server, count);
      if (out.length < count) throw new Error('the CLI listed too little');
    },
    { note: `work-request list --limit ${String(count)} --yaml` },
  );
}
