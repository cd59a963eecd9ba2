/**
 * The app refuses to run without Chromium's sandbox, as the AppImage starts it where user
 * namespaces are refused, unless the user allows it by DEBUSINE_DESKTOP_ALLOW_NO_SANDBOX=1.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ALLOW_NO_SANDBOX,
  refuseUnsandboxed,
  sandboxOff,
  unsandboxedRefusal,
} from '../../src/main/app/sandbox-check';

const facts = (argv: string[], env: NodeJS.ProcessEnv = {}, noSandboxSwitch = false) => ({
  argv: ['/opt/Debusine Desktop/debusine-desktop', ...argv],
  env,
  noSandboxSwitch,
});

describe('the sandbox', () => {
  it('is off for --no-sandbox in any way Chromium reads it, or by Chromium’s own word', () => {
    for (const argv of [
      ['--no-sandbox'],
      ['-no-sandbox'],
      ['--no-sandbox=1'],
      ['x', '--no-sandbox'],
    ]) {
      expect(sandboxOff(facts(argv))).toBe(true);
    }
    expect(sandboxOff(facts([], {}, true))).toBe(true);
  });

  it('is on otherwise, whatever else the arguments say', () => {
    for (const argv of [
      [],
      ['--no-sandboxes'],
      ['--disable-gpu-sandbox'],
      ['debusine-desktop://x'],
    ]) {
      expect(sandboxOff(facts(argv))).toBe(false);
    }
  });
});

describe('running without the sandbox', () => {
  it('is refused, saying how to run sandboxed and how to allow it', () => {
    const refusal = unsandboxedRefusal(facts(['--no-sandbox'], { APPIMAGE: '/home/u/D.AppImage' }));
    expect(refusal?.title).toMatch(/will not run without its sandbox/);
    const message = refusal?.message ?? '';
    expect(message).toMatch(/AppImage started it with --no-sandbox/);
    expect(message).toMatch(/install the \.deb package/);
    expect(message).toContain('kernel.apparmor_restrict_unprivileged_userns=0');
    expect(message).toMatch(/AppArmor profile/);
    expect(message).toContain(`${ALLOW_NO_SANDBOX}=1`);
  });

  it('is allowed by the variable set to 1, and only so', () => {
    expect(unsandboxedRefusal(facts(['--no-sandbox'], { [ALLOW_NO_SANDBOX]: '1' }))).toBeNull();
    for (const value of ['', '0', 'yes', 'true ']) {
      expect(
        unsandboxedRefusal(facts(['--no-sandbox'], { [ALLOW_NO_SANDBOX]: value })),
      ).not.toBeNull();
    }
  });

  it('is not in question when the sandbox is on', () => {
    expect(unsandboxedRefusal(facts([], { APPIMAGE: '/home/u/D.AppImage' }))).toBeNull();
  });
});

describe('at start', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const electron = (noSandboxSwitch: boolean) => ({
    app: {
      commandLine: { hasSwitch: (name: string) => name === 'no-sandbox' && noSandboxSwitch },
      releaseSingleInstanceLock: vi.fn(),
      exit: vi.fn(),
    } as unknown as Parameters<typeof refuseUnsandboxed>[0],
    dialog: { showErrorBox: vi.fn() },
  });

  it('an unsandboxed app shows why, gives up its lock and ends', () => {
    const { app, dialog } = electron(true);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const saved = process.env[ALLOW_NO_SANDBOX];
    Reflect.deleteProperty(process.env, ALLOW_NO_SANDBOX);
    try {
      expect(refuseUnsandboxed(app, dialog)).toBe(true);
    } finally {
      if (saved !== undefined) process.env[ALLOW_NO_SANDBOX] = saved;
    }
    expect(dialog.showErrorBox).toHaveBeenCalledWith(
      expect.stringMatching(/without its sandbox/),
      expect.stringContaining(ALLOW_NO_SANDBOX),
    );
    expect(app.releaseSingleInstanceLock).toHaveBeenCalled();
    expect(app.exit).toHaveBeenCalledWith(1);
  });

  it('a sandboxed app goes on', () => {
    const { app, dialog } = electron(false);
    expect(refuseUnsandboxed(app, dialog)).toBe(false);
    expect(dialog.showErrorBox).not.toHaveBeenCalled();
  });
});
