/**
 * Files the host's dialogs choose: files to upload (staged, held by the page that picked
 * them) and where a download goes. The renderer only ever sees ids.
 */
import type { ServiceHandlers } from '../bridge/dispatch';
import type { StagedFile } from '../../shared/contract';
import { notOnThisHost, type HostCapabilities } from './host';
import type { StagedFiles } from './staged-files';

type Handlers = Pick<
  ServiceHandlers,
  'files.pick' | 'files.release' | 'downloads.chooseDestination'
>;

export function fileHandlers(files: StagedFiles, host: HostCapabilities): Handlers {
  return {
    'files.pick': async ({ multiple, title }, caller) => {
      if (!host.pickFiles) throw notOnThisHost('files.pick', 'drop the files or use a file input');
      const paths = await host.pickFiles({ multiple, title });
      const staged: StagedFile[] = [];
      for (const path of paths) staged.push(await files.add(path, { caller }));
      return staged;
    },
    'files.release': async ({ ids }, caller) => {
      await files.releaseFor(caller, ids);
      return undefined;
    },
    'downloads.chooseDestination': async ({ kind, suggestedName }) => {
      if (!host.chooseDestination) {
        throw notOnThisHost('downloads.chooseDestination', 'use downloads.link instead');
      }
      const path = await host.chooseDestination({ kind, suggestedName });
      return path === null ? null : files.addDestination(path, kind);
    },
  };
}
