/**
 * The app does not run without Chromium's sandbox unless the user says so. The AppImage's
 * AppRun (electron-builder's, for the static runtime) starts it with --no-sandbox wherever
 * `unshare -Ur true` fails: on Ubuntu 24.04 and later AppArmor refuses unprivileged user
 * namespaces to programs no profile allows, and the sandbox needs one. Without the sandbox
 * a flaw in the page's renderer reaches everything the user can. So at start the app says
 * why it stops and how to run it sandboxed, unless ALLOW_NO_SANDBOX is set (README.md).
 */
import type { App, Dialog } from 'electron';

/** The environment variable by which a user accepts running without the sandbox. */
export const ALLOW_NO_SANDBOX = 'DEBUSINE_DESKTOP_ALLOW_NO_SANDBOX';

export interface SandboxFacts {
  /** The process's arguments, Chromium's switches among them. */
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  /** What Chromium's own command line says: app.commandLine.hasSwitch('no-sandbox'). */
  noSandboxSwitch: boolean;
}

/**
 * Whether the sandbox is off. Chromium reads switches written `--name` or `-name`, with or
 * without a value, up to a lone `--`; any of them here counts, even past `--`: a refusal
 * too many is better than running unsandboxed unawares.
 */
export function sandboxOff(facts: SandboxFacts): boolean {
  return facts.noSandboxSwitch || facts.argv.some((arg) => /^--?no-sandbox(=|$)/.test(arg));
}

export interface Refusal {
  title: string;
  message: string;
}

/** Why the app will not start, or null when it may: sandboxed, or allowed not to be. */
export function unsandboxedRefusal(facts: SandboxFacts): Refusal | null {
  if (!sandboxOff(facts)) return null;
  if (facts.env[ALLOW_NO_SANDBOX] === '1') return null;
  const appImage = facts.env.APPIMAGE?.startsWith('/') === true;
  return {
    title: 'Debusine Desktop will not run without its sandbox',
    message: [
      appImage
        ? 'The AppImage started it with --no-sandbox: this system does not let it create ' +
          'the user namespace that Chromium’s sandbox needs. Ubuntu 24.04 and later refuse ' +
          'them, through AppArmor, to programs no AppArmor profile allows.'
        : 'It was started with --no-sandbox, which turns off Chromium’s sandbox.',
      'Without the sandbox, code that gets into a page through a flaw can reach all your files.',
      '',
      'To run it sandboxed, any one of:',
      '• install the .deb package, which brings an AppArmor profile that allows it;',
      '• write an AppArmor profile that allows user namespaces for the AppImage (README.md, ' +
        '"Electron", shows one);',
      '• allow every program unprivileged user namespaces: ' +
        'sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 ' +
        '(and the same line in a file under /etc/sysctl.d/ to keep it).',
      '',
      `To run it without the sandbox all the same, start it with ${ALLOW_NO_SANDBOX}=1 in ` +
        'its environment.',
    ].join('\n'),
  };
}

/**
 * Called once Electron is ready (before then, Linux shows no dialog, only stderr): tells the
 * user and ends the app when it must not run. Returns whether it did.
 */
export function refuseUnsandboxed(
  app: Pick<App, 'commandLine' | 'releaseSingleInstanceLock' | 'exit'>,
  dialog: Pick<Dialog, 'showErrorBox'>,
): boolean {
  const facts = {
    argv: process.argv,
    env: process.env,
    noSandboxSwitch: app.commandLine.hasSwitch('no-sandbox'),
  };
  const refusal = unsandboxedRefusal(facts);
  if (refusal === null) {
    if (sandboxOff(facts)) console.warn(`Running without the sandbox: ${ALLOW_NO_SANDBOX}=1.`);
    return false;
  }
  console.error(`${refusal.title}.\n${refusal.message}`);
  dialog.showErrorBox(refusal.title, refusal.message);
  // As a failed start does: no later launch may hand its arguments to this process.
  app.releaseSingleInstanceLock();
  app.exit(1);
  return true;
}
