import { describe, expect, it } from 'vitest';
import { EventHub } from '../../src/main/bridge/event-outbox';
import { createService, PENDING_ENTRIES } from '../../src/main/service';
import { StaticSessionProvider } from '../../src/main/service/session';
import { StagedFiles } from '../../src/main/service/staged-files';
import { REQUEST_CHANNELS, requests, type RequestChannel } from '../../src/shared/contract';
import { SAMPLE_ARGS } from './bridge-samples';

function service(
  host: Parameters<typeof createService>[0]['host'] = { transport: 'web', platform: 'linux' },
) {
  const hub = new EventHub();
  return createService({
    session: new StaticSessionProvider(undefined),
    files: new StagedFiles(),
    host,
    emit: hub.emit.bind(hub),
  });
}

describe('the service', () => {
  it.each(Object.entries(PENDING_ENTRIES))(
    'says %s is not available yet (issue %i)',
    async (channel, issue) => {
      const handler = service()[channel as RequestChannel] as (a: unknown) => Promise<unknown>;
      const args = requests[channel as RequestChannel].args.parse(
        SAMPLE_ARGS[channel as RequestChannel],
      );
      await expect(handler(args)).rejects.toMatchObject({
        code: 'unsupported',
        message: `${channel} is not available yet`,
        details: { issue },
      });
    },
  );

  it('has a handler for every request', () => {
    expect(Object.keys(service()).sort()).toEqual([...REQUEST_CHANNELS].sort());
  });

  it('reports no server and refuses server calls with `auth` when none is configured', async () => {
    const s = service();
    await expect(s['session.whoami'](undefined)).resolves.toEqual({
      server: null,
      user: null,
      authenticated: false,
    });
    await expect(s['workRequests.get']({ id: 1 })).rejects.toMatchObject({ code: 'auth' });
  });

  it('uses the host for dialogs, and says where a host has none', async () => {
    await expect(service()['files.pick']({ multiple: true })).rejects.toMatchObject({
      code: 'unsupported',
    });
    const s = service({
      transport: 'electron',
      platform: 'linux',
      pickFiles: () => Promise.resolve([import.meta.filename]),
      chooseDestination: () => Promise.resolve('/tmp/out.dsc'),
    });
    const [picked] = await s['files.pick']({ multiple: false });
    expect(picked).toMatchObject({ name: 'bridge-service.test.ts' });
    expect(JSON.stringify(picked)).not.toContain('/test/unit');
    const dest = await s['downloads.chooseDestination']({ kind: 'file' });
    expect(dest).toEqual({ destinationId: expect.any(String) as string, label: 'out.dsc' });
  });
});
