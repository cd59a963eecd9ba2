/**
 * The DebusineApi over the web host's WebSocket, for the app running in a browser.
 *
 * The address the host printed (`http://127.0.0.1:PORT/#key=…`) carries a launch key in
 * its fragment: a fragment is never sent in a request, so no server sees it. But the
 * browser keeps the address it opened, fragment and all, in its history database, which
 * any program of the user's can read. So the launch key works once: the page takes it out
 * of the address bar and the tab's history entry, trades it for a session key of its own
 * (POST /session), and from then on the host refuses it. The page presents the session
 * key only to its own host: as a WebSocket subprotocol and as a staging header. It keeps
 * it in sessionStorage, so that a reload (which has no fragment any more) still gets in:
 * sessionStorage belongs to this origin, port included, and to this tab, so a page on
 * another port cannot read it, and it is gone when the tab closes.
 */
import type {
  DebusineApi,
  DownloadLink,
  DroppedFile,
  Reply,
  SavedDownload,
  StagedFile,
} from '@shared/contract';
import type { SerializedError } from '@shared/errors';
import {
  createMessageApi,
  type AskMain,
  type LocalRequests,
  type MessagePort,
} from '@shared/bridge-message-api';
import {
  BRIDGE_PROTOCOL,
  FELL_BEHIND_CODE,
  KEY_HEADER,
  SESSION_PATH,
  keyProtocol,
} from '@shared/web-host-key';

const CLOSED: SerializedError = {
  code: 'network',
  message: 'The connection to the Debusine Desktop host was lost. Reload the page.',
};

const NO_KEY: SerializedError = {
  code: 'network',
  message:
    'This page has no session key: open the address the Debusine Desktop host printed (it ends in #key=…).',
};

const REFUSED: SerializedError = {
  code: 'network',
  message:
    'The Debusine Desktop host refused this page, or is not running: open the address it printed (it ends in #key=…).',
};

const USED: SerializedError = {
  code: 'network',
  message:
    'This address was used already: each address the Debusine Desktop host prints opens one tab. Open the newest address it printed.',
};

/** Where the session key is kept for reloads of this tab. */
export const KEY_STORAGE = 'debusine-desktop.session-key';

export interface PageWindow {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
}

/** A launch key traded at the host: a session key, refused (used, or wrong), or no answer. */
export type Exchange = (
  launch: string,
) => Promise<{ key: string } | { refused: true } | { unreachable: true }>;

/**
 * The launch key in the address's fragment, which is then removed from the address bar and
 * from the tab's history entry; null when the address has none.
 */
export function takeLaunchKey(page: PageWindow): string | null {
  const fragment = new URLSearchParams(page.location.hash.replace(/^#/, ''));
  const launch = fragment.get('key');
  if (launch === null) return null;
  fragment.delete('key');
  const rest = fragment.toString();
  page.history.replaceState(
    page.history.state,
    '',
    `${page.location.pathname}${page.location.search}${rest ? `#${rest}` : ''}`,
  );
  return launch;
}

function keptKey(page: PageWindow): string | null {
  try {
    return page.sessionStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

/**
 * This tab's session key: the launch key in the address traded for one, or else the one
 * the tab kept from an earlier load; or why there is none.
 */
export async function sessionKeyOf(
  page: PageWindow,
  exchange: Exchange,
): Promise<{ key: string } | { error: SerializedError }> {
  const launch = takeLaunchKey(page);
  if (launch === null) {
    const kept = keptKey(page);
    return kept === null ? { error: NO_KEY } : { key: kept };
  }
  const traded = await exchange(launch);
  if ('key' in traded) {
    try {
      page.sessionStorage.setItem(KEY_STORAGE, traded.key);
    } catch {
      // Storage refused (a private mode): this load works; a reload needs a new address.
    }
    return traded;
  }
  // The address may be one this tab was opened with before (the browser restored it):
  // the session it got then is still good.
  const kept = keptKey(page);
  if (kept !== null) return { key: kept };
  return { error: 'refused' in traded ? USED : REFUSED };
}

/** The exchange as the page makes it: to its own host, the key in a header. */
async function exchangeAtHost(launch: string): ReturnType<Exchange> {
  let response: Response;
  try {
    response = await fetch(SESSION_PATH, {
      method: 'POST',
      headers: { [KEY_HEADER]: launch },
      cache: 'no-store',
    });
  } catch {
    return { unreachable: true };
  }
  if (!response.ok) return { refused: true };
  try {
    const body = (await response.json()) as { key?: unknown };
    return typeof body.key === 'string' && body.key !== '' ? { key: body.key } : { refused: true };
  } catch {
    return { refused: true };
  }
}

/** A transport that is closed from the start, with why. */
function refusedPort(error: SerializedError): MessagePort {
  return {
    send: () => undefined,
    onMessage: () => undefined,
    onClose(callback) {
      queueMicrotask(() => {
        callback(error);
      });
    },
  };
}

/**
 * A transport that is `opening` once that is known (the session key comes from an
 * exchange first), holding what is sent until then.
 */
function portWhenReady(opening: Promise<MessagePort>): MessagePort {
  const pending: Parameters<MessagePort['send']>[0][] = [];
  let ready: MessagePort | null = null;
  let receiver: Parameters<MessagePort['onMessage']>[0] | null = null;
  let onClose: Parameters<MessagePort['onClose']>[0] | null = null;
  void opening.then((port) => {
    ready = port;
    if (receiver) port.onMessage(receiver);
    if (onClose) port.onClose(onClose);
    for (const message of pending.splice(0)) port.send(message);
  });
  return {
    send(message) {
      if (ready) ready.send(message);
      else pending.push(message);
    },
    onMessage(callback) {
      receiver = callback;
      ready?.onMessage(callback);
    },
    onClose(callback) {
      onClose = callback;
      ready?.onClose(callback);
    },
  };
}

const FELL_BEHIND: SerializedError = {
  code: 'network',
  message: 'This page fell behind the Debusine Desktop host, which closed it: it reloads.',
};

/**
 * The bridge's socket. `onFellBehind`: the host closed it because the page had stopped
 * reading (FELL_BEHIND_CODE); events it never got are lost, so the page must read anew.
 */
export function openSocket(url: string, key: string, onFellBehind: () => void): MessagePort {
  // The host answers with the plain protocol; the one carrying the key is never echoed.
  const socket = new WebSocket(url, [BRIDGE_PROTOCOL, keyProtocol(key)]);
  const outgoing: string[] = [];
  let receiver: Parameters<MessagePort['onMessage']>[0] = () => undefined;
  let onClose: Parameters<MessagePort['onClose']>[0] = () => undefined;
  let opened = false;
  socket.addEventListener('open', () => {
    opened = true;
    for (const text of outgoing.splice(0)) socket.send(text);
  });
  socket.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (typeof event.data !== 'string') return;
    try {
      receiver(JSON.parse(event.data) as Parameters<typeof receiver>[0]);
    } catch {
      // A message that is not JSON is not from our host; ignore it.
    }
  });
  socket.addEventListener('close', (event: CloseEvent) => {
    if (opened && event.code === FELL_BEHIND_CODE) {
      onClose(FELL_BEHIND);
      onFellBehind();
      return;
    }
    // Never opened: the host refused the key (it was restarted, and knows it no more) or
    // is gone.
    onClose(opened ? CLOSED : REFUSED);
  });
  return {
    send(message) {
      const text = JSON.stringify(message);
      if (socket.readyState === WebSocket.OPEN) socket.send(text);
      else outgoing.push(text);
    },
    onMessage(callback) {
      receiver = callback;
    },
    onClose(callback) {
      onClose = callback;
    },
  };
}

async function stageOne(file: DroppedFile, key: string): Promise<Reply<StagedFile>> {
  try {
    const response = await fetch(`/staging?name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      // The page hands over DOM File objects; the contract's DroppedFile is their shape.
      body: file as unknown as Blob,
      headers: { [KEY_HEADER]: key },
    });
    if (response.status === 403) return { ok: false, error: REFUSED };
    return (await response.json()) as Reply<StagedFile>;
  } catch {
    return { ok: false, error: CLOSED };
  }
}

/** Files of the page (dropped or chosen) staged at the host, in order; the first refusal ends it. */
export type StageFiles = (files: readonly DroppedFile[]) => Promise<Reply<StagedFile[]>>;

function stageAtHost(session: Promise<{ key: string } | { error: SerializedError }>): StageFiles {
  return async (files) => {
    const s = await session;
    if ('error' in s) return { ok: false, error: s.error };
    const staged: StagedFile[] = [];
    for (const file of files) {
      const reply = await stageOne(file, s.key);
      if (!reply.ok) return reply;
      staged.push(reply.result);
    }
    return { ok: true, result: staged };
  };
}

/** The page's way of opening a tab: window.open, or a test's stand-in. */
export type OpenWindow = (url: string, target: string, features: string) => unknown;

/**
 * app.openExternal in a browser: the address (a link in a log, a page of the server's web
 * UI) opens in a new tab of the browser the app runs in. Main's own answer, that it cannot
 * open a browser from here, would be of no use to the user. Only http and https open, as
 * main checks in Electron: a `javascript:` address would run in the app's own page, a
 * `file:` one read the user's files. The new tab gets no handle on the app's page
 * (noopener) and is not told the app's address (noreferrer), whose port is the host's.
 */
export function openInNewTab(open: OpenWindow, address: string): Reply<undefined> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { ok: false, error: { code: 'validation', message: `Not a web address: ${address}` } };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    return {
      ok: false,
      error: {
        code: 'validation',
        message: `Only http and https addresses open from the app, not ${url.protocol}`,
      },
    };
  }
  open(url.href, '_blank', 'noopener,noreferrer');
  return { ok: true, result: undefined };
}

/**
 * files.pick in a browser: the browser's own file chooser, as main has no window to show a
 * dialog in here; the chosen files are then staged at the host as dropped ones are. With
 * `folder`, the chooser picks a folder, which stands for its files. Cancelling answers no
 * files (a browser that does not tell the page about a cancel leaves the answer pending,
 * which asks nothing more of anyone).
 */
export function pickInPage(
  doc: Document,
  args: unknown,
  stage: StageFiles,
): Promise<Reply<StagedFile[]>> {
  const { multiple, folder } = (args ?? {}) as { multiple?: unknown; folder?: unknown };
  const input = doc.createElement('input');
  input.type = 'file';
  input.multiple = multiple !== false;
  input.webkitdirectory = folder === true;
  input.hidden = true;
  doc.body.append(input);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (files: readonly File[]): void => {
      if (settled) return;
      settled = true;
      input.remove();
      resolve(files.length > 0 ? stage(files) : { ok: true, result: [] });
    };
    input.addEventListener('change', () => {
      settle([...(input.files ?? [])]);
    });
    input.addEventListener('cancel', () => {
      settle([]);
    });
    input.click();
  });
}

/** The page's way of handing a same-origin URL to the browser's own download. */
export type HandToBrowser = (url: string, name: string) => void;

/** An <a download> clicked in `doc`: the browser saves what the URL serves, as `name`. */
export function downloadLink(doc: Document): HandToBrowser {
  return (url, name) => {
    const a = doc.createElement('a');
    a.href = url;
    a.download = name;
    a.rel = 'noopener';
    a.style.display = 'none';
    doc.body.append(a);
    a.click();
    a.remove();
  };
}

/**
 * downloads.save in a browser: main cannot write where the browser's user chooses, so the
 * page asks main for a one-time link to the file or the tarball (downloads.link, naming the
 * same server, which main checks) and hands it to the browser's own download, which asks
 * where or uses its downloads folder, and shows the progress. Whole artifacts in one folder
 * cannot be saved this way: app.info says so (saveDownload `browser`), and the page saves
 * their files one by one instead.
 */
export async function saveInBrowser(
  args: unknown,
  main: AskMain,
  hand: HandToBrowser,
): Promise<Reply<SavedDownload | null>> {
  const { what, server, artifactId, path } = (args ?? {}) as Record<string, unknown>;
  if (what === 'file' && typeof path !== 'string') {
    return { ok: false, error: { code: 'validation', message: 'Which file to save?' } };
  }
  if (what !== 'file' && what !== 'tarball') {
    return {
      ok: false,
      error: {
        code: 'unsupported',
        message: 'The browser saves files one by one: it cannot put whole artifacts in a folder.',
      },
    };
  }
  const reply = await main(
    'downloads.link',
    what === 'file' ? { server, artifactId, path } : { server, artifactId },
  );
  if (!reply.ok) return reply;
  // Main's own answer (its contract's DownloadLink), not a server's.
  const link = reply.result as DownloadLink;
  hand(link.url, link.name);
  return { ok: true, result: { savedBy: 'browser', name: link.name } };
}

/** What the page does itself in a browser, for the requests it answers (pageRequests). */
export interface Page {
  open: OpenWindow;
  document: Document;
  stage: StageFiles;
  hand: HandToBrowser;
}

/**
 * The requests the page answers in a browser, where main cannot do what they ask for the
 * user: it has no window, and the user's browser is on the page's side.
 */
export function pageRequests(page: Page): LocalRequests {
  return {
    'app.openExternal': (args) => {
      const url = (args as { url?: unknown } | undefined)?.url;
      return typeof url === 'string'
        ? openInNewTab(page.open, url)
        : { ok: false, error: { code: 'validation', message: 'A link needs an address.' } };
    },
    'files.pick': (args) => pickInPage(page.document, args, page.stage),
    'downloads.save': (args, main) => saveInBrowser(args, main, page.hand),
  };
}

export function connectWebHost(
  page: PageWindow & { location: Pick<Location, 'host' | 'reload'> },
): DebusineApi {
  const session = sessionKeyOf(page, exchangeAtHost);
  const bridgeUrl = `ws://${page.location.host}/bridge`;
  // A reload reconnects with the key the tab kept and reads all its data anew: the events
  // the host could not deliver are not missed.
  const reload = (): void => {
    page.location.reload();
  };
  const port = portWhenReady(
    session.then((s) => ('key' in s ? openSocket(bridgeUrl, s.key, reload) : refusedPort(s.error))),
  );
  const stage = stageAtHost(session);
  return createMessageApi(port, {
    stageDropped: stage,
    local: pageRequests({
      open: (address, target, features) => window.open(address, target, features),
      document,
      stage,
      hand: downloadLink(document),
    }),
  });
}
