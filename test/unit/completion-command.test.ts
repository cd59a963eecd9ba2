import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CompletionCommandFile } from '../../src/main/service/completion-command';
import type { HostCapabilities } from '../../src/main/composition-root';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import { CompletionRouter, type WorkRequestSource } from '../../src/main/watch/completion-router';
import { WatchList } from '../../src/main/watch/watch-list';
import { testService } from '../support/memory-bridge';
import { testCaller } from '../support/caller';

/** The renderer these tests stand for: it holds what they open. */
const caller = testCaller();

type Made = Awaited<ReturnType<typeof testService>>;
const made: Made[] = [];
const dirs: string[] = [];

async function service(host?: HostCapabilities, before?: (dataDir: string) => Promise<void>) {
  const s = await testService(host ? { host } : {});
  made.push(s);
  await before?.(s.dataDir);
  await s.service.start();
  return s;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'completion-command-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const s of made.splice(0)) await s.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function electron(chosen: string | null): HostCapabilities {
  return {
    transport: 'electron',
    platform: 'linux',
    chooseProgram: () => Promise.resolve(chosen),
  };
}

describe('the program run on completion, in Electron', () => {
  it('is the program chosen in main’s dialog, stored by main, for this user only', async () => {
    const s = await service(electron(process.execPath));
    const settings = await s.handlers['notifications.chooseCommand'](undefined, caller);
    expect(settings.commandHook).toEqual({ enabled: true, command: [process.execPath] });
    const file = join(s.dataDir, 'completion-command.json');
    expect(settings.commandFile).toBe(file);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      command: [process.execPath],
      enabled: true,
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await expect(s.handlers['notifications.getSettings'](undefined, caller)).resolves.toMatchObject(
      {
        commandHook: { enabled: true, command: [process.execPath] },
        commandProblem: null,
      },
    );
    const removed = await s.handlers['notifications.removeCommand'](undefined, caller);
    expect(removed.commandHook).toBeNull();
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
  });

  it('changes nothing when the dialog is cancelled, or the file chosen is no program', async () => {
    const cancelled = await service(electron(null));
    const settings = await cancelled.handlers['notifications.chooseCommand'](undefined, caller);
    expect(settings.commandHook).toBeNull();
    await expect(readFile(join(cancelled.dataDir, 'completion-command.json'))).rejects.toThrow(
      /ENOENT/,
    );

    const dir = await tempDir();
    const notAProgram = join(dir, 'notes.txt');
    await writeFile(notAProgram, 'just text', { mode: 0o644 });
    const s = await service(electron(notAProgram));
    await expect(
      s.handlers['notifications.chooseCommand'](undefined, caller),
    ).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringContaining(notAProgram) as string,
    });
    await expect(readFile(join(s.dataDir, 'completion-command.json'))).rejects.toThrow(/ENOENT/);
  });
});

describe('the program run on completion, in the web host', () => {
  it('cannot be chosen or removed over the bridge: the message names the file to edit', async () => {
    const s = await service();
    const file = join(s.dataDir, 'completion-command.json');
    for (const channel of ['notifications.chooseCommand', 'notifications.removeCommand'] as const) {
      await expect(s.handlers[channel](undefined, caller), channel).rejects.toMatchObject({
        code: 'unsupported',
        message: expect.stringContaining(file) as string,
      });
    }
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
  });

  it('drops a hook an earlier version kept with the bridge’s settings, unread', async () => {
    // Such a hook may have been planted through the bridge: it must never run.
    const planted = { enabled: true, command: ['/bin/sh', '-c', 'touch /tmp/pwned'] };
    const s = await service(undefined, async (dataDir) => {
      await writeFile(
        join(dataDir, 'notifications.json'),
        JSON.stringify({ mode: 'mine', commandHook: planted }),
      );
    });
    const settings = await s.handlers['notifications.getSettings'](undefined, caller);
    expect(settings).toMatchObject({ mode: 'mine', commandHook: null });
    await expect(s.service.watch.commands.current()).resolves.toBeUndefined();
    await s.handlers['notifications.setSettings']({ failuresOnly: true }, caller);
    const onDisk = JSON.parse(
      await readFile(join(s.dataDir, 'notifications.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(onDisk).toMatchObject({ mode: 'mine', failuresOnly: true });
    expect(onDisk).not.toHaveProperty('commandHook');
  });
});

describe('the command file, edited by hand', () => {
  async function withFile(content: string, mode = 0o600) {
    const dir = await tempDir();
    const commands = new CompletionCommandFile(dir);
    await writeFile(commands.path, content);
    await chmod(commands.path, mode);
    return commands;
  }

  it('takes a program with arguments of its own, and can be turned off', async () => {
    const on = await withFile('{"command": ["notify-send", "Debusine"]}');
    await expect(on.current()).resolves.toEqual({ command: 'notify-send', args: ['Debusine'] });
    const off = await withFile('{"command": ["notify-send"], "enabled": false}');
    await expect(off.read()).resolves.toEqual({
      hook: { enabled: false, command: ['notify-send'] },
      problem: null,
    });
    await expect(off.current()).resolves.toBeUndefined();
  });

  it('says what is wrong, naming the file and the line or field, and runs nothing', async () => {
    const cases: [string, RegExp][] = [
      ['{\n  "command": ["a"],\n  oops\n}', /line 3, column 3/],
      ['{"command": "notify-send Debusine"}', /"command": .*expected array/],
      ['{"command": []}', /"command": /],
      ['{"command": ["a"], "shell": true}', /shell/],
    ];
    for (const [content, why] of cases) {
      const commands = await withFile(content);
      const { hook, problem } = await commands.read();
      expect(hook, content).toBeNull();
      expect(problem, content).toContain(commands.path);
      expect(problem, content).toMatch(why);
      await expect(commands.current(), content).resolves.toBeUndefined();
    }
  });

  it.skipIf(process.platform === 'win32')(
    'is not used when other users could have written it',
    async () => {
      const commands = await withFile('{"command": ["notify-send"]}', 0o666);
      await expect(commands.read()).resolves.toEqual({
        hook: null,
        problem: expect.stringMatching(/can be written by other users.*chmod go-w/) as string,
      });
      await expect(commands.current()).resolves.toBeUndefined();
    },
  );

  it('is read at each completion: an edit applies to the next one', async () => {
    const dir = await tempDir();
    const commands = new CompletionCommandFile(dir);
    const out = join(dir, 'ran.txt');
    let reads = 0;
    const program = `require('node:fs').appendFileSync(${JSON.stringify(out)}, process.argv.slice(1).join(' ') + '\\n')`;
    const router = new CompletionRouter({
      client: {
        workRequestGet: () => Promise.reject(new Error('not needed')),
      } as unknown as WorkRequestSource,
      watchList: new WatchList(join(dir, 'watch.json')),
      notifier: new RecordingNotifier(),
      commandHook: async () => {
        const hook = await commands.current();
        reads++;
        return hook;
      },
    });
    router.on('error', () => undefined);
    const runs: number[] = [];
    router.on('command', (c: { workRequestId: number }) => runs.push(c.workRequestId));
    const complete = async (id: number, configured: unknown): Promise<void> => {
      if (configured === null) await rm(commands.path, { force: true });
      else await writeFile(commands.path, JSON.stringify(configured), { mode: 0o600 });
      await router.handleCompletion({
        workRequestId: id,
        completedAt: '2026-01-01T00:00:00Z',
        result: 'failure',
        receivedAt: Date.now(),
      });
      // The file is read as the completion comes in, before the next edit.
      await expect.poll(() => reads).toBe(id);
    };
    const node = [process.execPath, '-e', program];
    await complete(1, null);
    await complete(2, { command: node });
    await expect.poll(() => runs).toEqual([2]);
    await complete(3, { command: node, enabled: false });
    await complete(4, { command: [...node, 'tagged'] });
    await expect.poll(() => runs).toEqual([2, 4]);
    await expect(readFile(out, 'utf8')).resolves.toBe('2 failure\ntagged 4 failure\n');
  });
});
