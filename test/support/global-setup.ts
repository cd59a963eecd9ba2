import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { usingExternalServers } from './sandbox';

/**
 * Brings the sandboxes up before integration and e2e tests (a no-op when they already run),
 * unless the tests target a server of your own. They stay up afterwards, so that
 * `npm start` has a server to show; `npm run sandbox:down` stops them.
 */
export default function setup(): void {
  if (usingExternalServers() || process.env.DEBUSINE_SANDBOX_SKIP_UP) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      'The Debusine sandboxes need root (debootstrap, chroot, mount). Run the tests as root, ' +
        'or point them at your own server with DEBUSINE_TEST_API_URL and DEBUSINE_TEST_TOKEN.',
    );
  }
  execFileSync(
    'bash',
    [resolve(import.meta.dirname, '../debusine-server/sandbox.sh'), 'up', 'all'],
    {
      stdio: 'inherit',
    },
  );
}
