/**
 * What the end-to-end tests of the app's areas share: one running app and one browser per
 * suite, moving around the app, and small artifacts to look at.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { LocalArtifact, uploadArtifact } from '../../src/main/artifacts';
import { envOnFake, startApp, type RunningApp } from './app';
import { seriousA11yViolations } from './a11y';
import { launchBrowser, screenshot } from './browser';
import { clientFor, ownerClient, unique } from './clients';
import { startFakeDebusine, type FakeDebusine } from './fake-debusine';
import type { Flavour, TestServer } from './sandbox';

export interface AppSession {
  readonly app: RunningApp;
  readonly browser: Browser;
}

/**
 * Starts the app (signed in to `flavour`, or with no server at all for `null`) and a browser
 * before the suite's tests, and stops them after. `seed` runs first, then `env` is asked for
 * the app's environment; `cleanUp` runs before the browser and app stop, `close` after them.
 */
export function appSession(
  flavour: Flavour | null,
  hooks: {
    seed?: () => Promise<void> | void;
    env?: () => Record<string, string>;
    cleanUp?: () => Promise<void>;
    close?: () => Promise<void> | void;
  } = {},
): AppSession {
  let app: RunningApp | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    await hooks.seed?.();
    app = await startApp(flavour, hooks.env?.() ?? {});
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await hooks.cleanUp?.();
    await browser?.close();
    await app?.stop();
    await hooks.close?.();
  });
  return {
    get app(): RunningApp {
      if (!app) throw new Error('the app has not started');
      return app;
    },
    get browser(): Browser {
      if (!browser) throw new Error('the browser has not started');
      return browser;
    },
  };
}

export interface FakeAppSession extends AppSession {
  /** The fake Debusine the app is signed in to. */
  readonly fake: FakeDebusine;
}

/**
 * An appSession on a fake Debusine (fake-debusine.ts) instead of a sandbox's: the fake
 * starts first, and `seed` gives it what the suite needs (artifacts, work requests…); then
 * the app starts signed in to it, in System, and a browser. `close` runs once the browser
 * and the app have stopped, before the fake closes.
 */
export function fakeAppSession(
  hooks: {
    seed?: (fake: FakeDebusine) => Promise<void> | void;
    close?: () => Promise<void> | void;
  } = {},
): FakeAppSession {
  let fake: FakeDebusine | undefined;
  const started = (): FakeDebusine => {
    if (!fake) throw new Error('the fake server has not started');
    return fake;
  };
  const session = appSession(null, {
    seed: async () => {
      fake = await startFakeDebusine();
      await hooks.seed?.(fake);
    },
    env: () => envOnFake(started()),
    close: async () => {
      await hooks.close?.();
      await fake?.close();
    },
  });
  return {
    get app(): RunningApp {
      return session.app;
    },
    get browser(): Browser {
      return session.browser;
    },
    get fake(): FakeDebusine {
      return started();
    },
  };
}

/** Closes the page's own context (openPage's close hook would race the browser's close). */
export async function closePage(page: Page): Promise<void> {
  page.removeAllListeners('close');
  await page.context().close();
}

/**
 * Saves a screenshot of the page as `name`, then checks that the page has no serious
 * accessibility violations: each view the end-to-end tests picture is also checked.
 */
export async function screenshotAndCheckA11y(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect(await seriousA11yViolations(page), name).toEqual([]);
}

/** The same in the light and then the dark theme (`<name>-light`, `<name>-dark`). */
export async function screenshotsInBothThemes(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshotAndCheckA11y(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Signs in on the sign-in panel with a pasted token; returns once the panel has gone. */
export async function signInWithToken(page: Page, token: string): Promise<void> {
  const panel = page.getByTestId('sign-in-panel');
  await panel.waitFor();
  await panel.getByText('Paste a token').click();
  await panel.getByRole('textbox', { name: 'Token' }).fill(token);
  await panel.getByRole('button', { name: 'Sign in' }).click();
  await panel.waitFor({ state: 'detached' });
}

/** Opens an area of the app from its navigation. */
export async function goTo(page: Page, area: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Areas' }).getByRole('button', { name: area }).click();
}

/** Opens an area of the app, then one of its tabs. */
export async function goToTab(page: Page, area: string, tab: string | RegExp): Promise<void> {
  await goTo(page, area);
  await page.getByRole('tab', { name: tab }).click();
}

/** Runs a lookup expression in the Collections area's lookup playground. */
export async function lookUp(page: Page, expression: string): Promise<void> {
  await goToTab(page, 'Collections', 'Lookups');
  await page.getByLabel('Lookup expression').fill(expression);
  await page.getByRole('button', { name: 'Look up' }).click();
}

/** Replaces the text of a CodeMirror editor (by its test id). */
export async function setEditor(page: Page, testId: string, text: string): Promise<void> {
  const content = page.getByTestId(testId).locator('.cm-content');
  await content.waitFor();
  await content.fill(text);
}

const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');

/** Creates a `debusine:test` artifact holding one empty file (named from `prefix`); its id. */
export async function createEmptyArtifact(
  client: DebusineClient,
  workspace: string,
  prefix: string,
): Promise<number> {
  const artifact = await client.artifactCreate({
    category: 'debusine:test',
    workspace,
    files: {
      [`${unique(prefix)}.txt`]: { size: 0, checksums: { sha256: EMPTY_SHA256 }, type: 'file' },
    },
    data: {},
  });
  return artifact.id;
}

/** An app session whose suite looks at empty artifacts of its own, and its owner's client. */
export interface ArtifactsSession extends AppSession {
  readonly client: DebusineClient;
  /** The artifacts' ids, in the order they were made; known once the suite has started. */
  readonly ids: readonly number[];
}

/**
 * An app session on the current server for a suite about artifacts: before the app starts,
 * the owner's client makes `count` empty artifacts in the System workspace (named from
 * `prefix`) and `seed`, if given, does more with them; the client is closed after the suite.
 */
export function artifactsSession(
  prefix: string,
  count: number,
  seed?: (client: DebusineClient, ids: readonly number[]) => Promise<void>,
): ArtifactsSession {
  const client = ownerClient('current');
  const ids: number[] = [];
  const session = appSession('current', {
    seed: async () => {
      for (let i = 0; i < count; i++) ids.push(await createEmptyArtifact(client, 'System', prefix));
      await seed?.(client, ids);
    },
    close: () => client.close(),
  });
  return {
    client,
    ids,
    get app(): RunningApp {
      return session.app;
    },
    get browser(): Browser {
      return session.browser;
    },
  };
}

/**
 * Uploads `files` (name and content) to the server's default workspace as one
 * debug-logs artifact, as its owner, through main's own client: a task's logs to read in
 * the viewer. Its id.
 */
export async function uploadDebugLogs(
  server: TestServer,
  files: Record<string, Buffer | string>,
): Promise<number> {
  const client = clientFor(server);
  const dir = await mkdtemp(join(tmpdir(), 'debug-logs-'));
  try {
    const artifact = new LocalArtifact('debusine:work-request-debug-logs', {});
    for (const [name, content] of Object.entries(files)) {
      await writeFile(join(dir, name), content);
      artifact.files.set(name, join(dir, name));
    }
    return (await uploadArtifact(client, artifact, { workspace: server.workspaces.default })).id;
  } finally {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Opens `path` of the artifact in the viewer, from the artifact's page and its file table. */
export async function openArtifactFile(
  page: Page,
  artifactId: number,
  path: string,
): Promise<void> {
  await goTo(page, 'Artifacts');
  const lookup = page.getByRole('search').getByLabel('Artifact id or URL');
  await lookup.fill(String(artifactId));
  await lookup.press('Enter');
  await page.getByRole('button', { name: `Open ${path}` }).click();
  await page.getByRole('heading', { name: path }).waitFor();
}
