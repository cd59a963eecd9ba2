// @vitest-environment happy-dom
/**
 * In a browser the page answers the requests main cannot do for the user there: files.pick
 * is the browser's own file chooser, whose files are staged at the host as dropped ones
 * are. Main is asked nothing for it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pageRequests, type StageFiles } from '@renderer/bridge/web-host-api';
import { createBridgeClient } from '@shared/bridge-client';
import { createMessageApi, type MessagePort } from '@shared/bridge-message-api';
import type { ClientMessage, DroppedFile, Reply, StagedFile } from '@shared/contract';

afterEach(() => {
  document.body.innerHTML = '';
});

/** A page whose host stages each file as `staged-<name>`, and a main that records requests. */
function pageBridge() {
  const sent: ClientMessage[] = [];
  const staged: string[][] = [];
  const port: MessagePort = {
    send: (message) => sent.push(message),
    onMessage: () => undefined,
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
      transport: 'web',
      stageDropped: stage,
      local: pageRequests({ open: () => null, document, stage }),
    }),
  );
  return { bridge, sent, staged };
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
