/**
 * Files to upload that the host's dialog chose, staged and held by the page that picked
 * them. The renderer only ever sees ids.
 */
import type { ServiceHandlers } from '../bridge/dispatch';
import type { StagedFile } from '../../shared/contract';
import { notOnThisHost, type HostCapabilities } from './host';
import { expandDropped, MAX_STAGED_AT_ONCE, type StagedFiles } from './staged-files';

type Handlers = Pick<ServiceHandlers, 'files.pick' | 'files.release'>;

export function fileHandlers(files: StagedFiles, host: HostCapabilities): Handlers {
  return {
    'files.pick': async ({ multiple, folder, title }, caller) => {
      if (!host.pickFiles) throw notOnThisHost('files.pick', 'the page shows its own file chooser');
      const paths = await host.pickFiles({ multiple, folder, title });
      // A chosen folder stands for its files, walked as a dropped one is.
      const staged: StagedFile[] = [];
      for (const path of await expandDropped(paths, MAX_STAGED_AT_ONCE)) {
        staged.push(await files.add(path, { caller }));
      }
      return staged;
    },
    'files.release': async ({ ids }, caller) => {
      await files.releaseFor(caller, ids);
      return undefined;
    },
  };
}
