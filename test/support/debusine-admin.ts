/**
 * Runs a Python script in `debusine-admin shell` inside a sandbox's chroot, as the server's
 * own user, and returns what it printed. Rows are then written through Debusine's own ORM, as
 * the server's code would.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

function shellArgs(root: string, script: string): string[] {
  return [
    '--userspec=debusine-server:debusine-server',
    root,
    '/usr/bin/env',
    '-i',
    'HOME=/var/lib/debusine/server',
    'LANG=C.UTF-8',
    'PATH=/usr/bin:/bin',
    'debusine-admin',
    'shell',
    '-c',
    script,
  ];
}

// Asynchronous on purpose: a blocked event loop would keep the HTTP pool from noticing that
// the server closed an idle connection, and the next request would go out on a dead socket.
export async function debusineAdminShell(root: string, script: string): Promise<string> {
  const { stdout } = await run('chroot', shellArgs(root, script), { encoding: 'utf8' });
  return stdout;
}

/** The same, blocking: only for set-up that holds no open connections (benchmark seeding). */
export function debusineAdminShellSync(root: string, script: string): string {
  return execFileSync('chroot', shellArgs(root, script), { encoding: 'utf8' });
}
