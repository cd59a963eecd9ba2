/**
 * What a server says about its queue, to anyone: `service-status/` counts pending and
 * running work and the workers per architecture; `open-metrics/` is the Prometheus text of
 * its metrics, read here for how long work waits to start. Neither needs a token; both are
 * the server's words, so the counts are checked to be counts and the text is bounded.
 */
import { z } from 'zod';
import { endpoint } from './endpoint';
import type { ApiContext } from './revision';

const count = z.number().int().nonnegative();

const workersSchema = z.looseObject({
  registered: count,
  connected: count,
  idle: count,
  busy: count,
});

const queueSchema = z.looseObject({ pending: count, running: count });

/** Architecture names are Debian's: lower-case letters, digits and dashes. */
const byArchitecture = <T extends z.ZodType>(value: T) =>
  z.record(z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/), value);

export const serviceStatusSchema = z.looseObject({
  /** Absent from servers that do not count per architecture. */
  external_workers_arch: byArchitecture(workersSchema).optional(),
  worker_tasks_arch: byArchitecture(queueSchema).optional(),
});
export type ServiceStatus = z.infer<typeof serviceStatusSchema>;

export const serviceStatus = endpoint(
  'serviceStatus',
  { method: 'GET', schema: serviceStatusSchema },
  () => ({ path: '/service-status/' }),
);

/** Far more than a busy server's metrics (about 200 kB): a longer answer is refused. */
export const METRICS_LIMIT = 8 * 1024 * 1024;

export function openMetrics(ctx: ApiContext): Promise<string> {
  return ctx.requestText(
    { operation: 'openMetrics', method: 'GET', path: '/open-metrics/' },
    METRICS_LIMIT,
  );
}
