import { beforeEach, describe, expect, it, vi } from 'vitest';

// A fake `electron`: main's open dialog answers what the test says the user chose.
const fake = vi.hoisted(() => ({
  answer: { canceled: false, filePaths: [] as string[] },
  showOpenDialog: vi.fn(),
}));

vi.mock('electron', () => ({
  dialog: {
    showOpenDialog: (...args: unknown[]) => {
      fake.showOpenDialog(...args);
      return Promise.resolve(fake.answer);
    },
    showSaveDialog: () => Promise.resolve({ canceled: true }),
  },
  shell: { openExternal: () => Promise.resolve() },
}));
vi.mock('../../src/main/app/window', () => ({ isExternalHttpUrl: () => true }));

const { electronHost } = await import('../../src/main/app/electron-host');

// Each test reads the calls its own dialog got.
beforeEach(() => {
  fake.showOpenDialog.mockClear();
});

describe('the program run on completion, in Electron', () => {
  it('is one file the user picks in main’s own open dialog', async () => {
    const host = electronHost(() => undefined);
    fake.answer = { canceled: false, filePaths: ['/usr/local/bin/on-done'] };
    await expect(host.chooseProgram?.()).resolves.toBe('/usr/local/bin/on-done');
    const [options] = fake.showOpenDialog.mock.calls[0] as [Electron.OpenDialogOptions];
    expect(options.properties).toContain('openFile');
    expect(options.properties).not.toContain('multiSelections');
    expect(options.properties).not.toContain('openDirectory');
  });

  it('is nothing when the dialog is cancelled', async () => {
    const host = electronHost(() => undefined);
    fake.answer = { canceled: true, filePaths: [] };
    await expect(host.chooseProgram?.()).resolves.toBeNull();
  });
});

describe('files to upload, in Electron', () => {
  it('are files, or a folder, as the page asks, in main’s own open dialog', async () => {
    const host = electronHost(() => undefined);
    fake.answer = { canceled: false, filePaths: ['/home/u/build'] };
    await expect(host.pickFiles?.({ multiple: true, folder: true })).resolves.toEqual([
      '/home/u/build',
    ]);
    await host.pickFiles?.({ multiple: false, folder: false });
    const calls = fake.showOpenDialog.mock.calls as [Electron.OpenDialogOptions][];
    expect(calls.map(([options]) => options.properties)).toEqual([
      ['openDirectory', 'multiSelections'],
      ['openFile'],
    ]);
  });
});
