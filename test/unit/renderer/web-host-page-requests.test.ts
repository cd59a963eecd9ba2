// @vitest-environment happy-dom
/**
 * In a browser the page answers the requests main cannot do for the user there: files.pick
 * is the browser's own file chooser, whose files are staged at the host as dropped ones
 * are, and main is asked nothing; downloads.save hands the one-time link main gives for the
 * page's server to the browser's own download.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { baseName } from '@shared/base-name';
import { createBridgeClient } from '@shared/bridge-client';
import { createMessageApi, type MessagePort } from '@shared/bridge-message-api';
import type {
  ClientMessage,
  DownloadLink,
  DroppedFile,
  Reply,
  ServerMessage,
  StagedFile,
} from '@shared/contract';
import { downloadLink, pageRequests, type StageFiles } from '@renderer/bridge/web-host-api';

afterEach(() => {
  document.body.innerHTML = '';
});

/**
 * A page whose host stages each file as `staged-<name>`, whose downloads are recorded
 * instead of saved, and whose main records what it is asked and answers downloads.link.
 */
function pageBridge(link: (args: unknown) => Reply<unknown> = () => ({ ok: true, result: null })) {
  const sent: ClientMessage[] = [];
  const staged: string[][] = [];
  const handed: [string, string][] = [];
  let receive: (message: ServerMessage) => void = () => undefined;
  const port: MessagePort = {
    send: (message) => {
      sent.push(message);
      if (message.type === 'request' && message.channel === 'downloads.link') {
        const reply = link(message.args);
        queueMicrotask(() => {
          receive({ type: 'reply', id: message.id, reply });
        });
      }
    },
    onMessage: (receiver) => {
      receive = receiver;
    },
    onClose: () => undefined,
  };
  const stage: StageFiles = (files: readonly DroppedFile[]) => {
    staged.push(files.map((f) => f.name));
    const result: StagedFile[] = files.map((f) => ({
      id: `staged-${f.name}`,
      name: f.name,
      size: f.size,
    }));
    return Promise.resolve<Reply<StagedFile[]>>({ ok: true, result });
  };
  const bridge = createBridgeClient(
    createMessageApi(port, {
      stageDropped: stage,
      local: pageRequests({
        open: () => null,
        document,
        stage,
        hand: (url, name) => handed.push([url, name]),
      }),
    }),
  );
  return { bridge, sent, staged, handed };
}

/** The file chooser the page opened: the one file input in the document. */
function chooser(): HTMLInputElement {
  const inputs = document.querySelectorAll<HTMLInputElement>('input[type="file"]');
  expect(inputs).toHaveLength(1);
  const [input] = inputs;
  if (!input) throw new Error('no file chooser');
  return input;
}

/** The user chooses these files in it. */
function choose(input: HTMLInputElement, files: File[]): void {
  Object.defineProperty(input, 'files', { value: files });
  input.dispatchEvent(new Event('change'));
}

describe('files.pick in a browser', () => {
  it("opens the browser's file chooser and stages the files chosen there", async () => {
    const { bridge, sent, staged } = pageBridge();
    const picking = bridge.files.pick({ multiple: true, folder: false });
    const input = chooser();
    expect(input.multiple).toBe(true);
    expect(input.webkitdirectory).toBe(false);
    choose(input, [new File(['a'], 'hello.dsc'), new File(['bb'], 'hello.tar.xz')]);
    await expect(picking).resolves.toEqual([
      { id: 'staged-hello.dsc', name: 'hello.dsc', size: 1 },
      { id: 'staged-hello.tar.xz', name: 'hello.tar.xz', size: 2 },
    ]);
    expect(staged).toEqual([['hello.dsc', 'hello.tar.xz']]);
    // The chooser is gone, and main was asked nothing.
    expect(document.querySelectorAll('input')).toHaveLength(0);
    expect(sent).toEqual([]);
  });

  it('picks a folder when asked for one', async () => {
    const { bridge } = pageBridge();
    const picking = bridge.files.pick({ multiple: true, folder: true });
    const input = chooser();
    expect(input.webkitdirectory).toBe(true);
    choose(input, [new File(['x'], 'x.deb')]);
    await expect(picking).resolves.toHaveLength(1);
  });

  it('answers no files, and stages nothing, when the user cancels', async () => {
    const { bridge, sent, staged } = pageBridge();
    const picking = bridge.files.pick({ multiple: true, folder: false });
    chooser().dispatchEvent(new Event('cancel'));
    await expect(picking).resolves.toEqual([]);
    expect(staged).toEqual([]);
    expect(document.querySelectorAll('input')).toHaveLength(0);
    expect(sent).toEqual([]);
  });
});

/** The link main gives for a file (or a tarball without path), as the web host does. */
const linkOf = (args: unknown): Reply<DownloadLink> => {
  const { path, artifactId } = args as { path?: string; artifactId: number };
  return {
    ok: true,
    result: {
      url: '/download/one-time-token',
      name: path === undefined ? `artifact-${String(artifactId)}.tar.gz` : baseName(path),
      expiresAt: '2030-01-01T00:00:00Z',
    },
  };
};

describe('downloads.save in a browser', () => {
  it("hands main's one-time link for the page's server to the browser's download", async () => {
    const { bridge, sent, handed } = pageBridge(linkOf);
    await expect(
      bridge.downloads.save({ what: 'file', server: 'a', artifactId: 7, path: 'pool/hello.dsc' }),
    ).resolves.toEqual({ savedBy: 'browser', name: 'hello.dsc' });
    await expect(
      bridge.downloads.save({ what: 'tarball', server: 'a', artifactId: 7 }),
    ).resolves.toEqual({ savedBy: 'browser', name: 'artifact-7.tar.gz' });
    // Main was asked for the links only, each naming the page's server.
    expect(sent).toEqual([
      {
        type: 'request',
        id: 1,
        channel: 'downloads.link',
        args: { server: 'a', artifactId: 7, path: 'pool/hello.dsc' },
      },
      { type: 'request', id: 2, channel: 'downloads.link', args: { server: 'a', artifactId: 7 } },
    ]);
    expect(handed).toEqual([
      ['/download/one-time-token', 'hello.dsc'],
      ['/download/one-time-token', 'artifact-7.tar.gz'],
    ]);
  });

  it("hands nothing to the browser when main refuses the link, and says main's why", async () => {
    const { bridge, handed } = pageBridge(() => ({
      ok: false,
      error: { code: 'conflict', message: 'This download is of another server' },
    }));
    await expect(
      bridge.downloads.save({ what: 'file', server: 'b', artifactId: 7, path: 'a.dsc' }),
    ).rejects.toMatchObject({ code: 'conflict', message: 'This download is of another server' });
    expect(handed).toEqual([]);
  });

  it('cannot put whole artifacts in a folder, and asks main nothing for it', async () => {
    const { bridge, sent, handed } = pageBridge(linkOf);
    await expect(
      bridge.downloads.save({ what: 'folder', server: 'a', artifactIds: [7] }),
    ).rejects.toMatchObject({ code: 'unsupported' });
    expect(sent).toEqual([]);
    expect(handed).toEqual([]);
  });

  it('saves through an <a download> of the page, which it removes again', () => {
    const clicked: { href: string; download: string }[] = [];
    document.addEventListener(
      'click',
      (event) => {
        const a = event.target as HTMLAnchorElement;
        clicked.push({ href: a.getAttribute('href') ?? '', download: a.download });
        event.preventDefault();
      },
      { once: true },
    );
    downloadLink(document)('/download/one-time-token', 'hello.dsc');
    expect(clicked).toEqual([{ href: '/download/one-time-token', download: 'hello.dsc' }]);
    expect(document.querySelectorAll('a')).toHaveLength(0);
  });
});
