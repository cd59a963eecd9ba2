/**
 * The names of the contract's requests and events, with no runtime dependency at all.
 *
 * Why a separate list: the sandboxed preload must build `window.debusine` from these names
 * but may not load zod (a sandboxed preload can only require `electron`). contract.ts types
 * its request and event tables with `satisfies Record<RequestChannel, …>`, so the compiler
 * refuses a name here without an entry there, and an entry there without a name here.
 */
export const REQUEST_CHANNELS = [
  'app.info',
  'app.openExternal',
  'session.whoami',
  'session.signInWithToken',
  'session.signOut',
  'servers.list',
  'servers.active',
  'servers.add',
  'servers.update',
  'servers.remove',
  'servers.setActive',
  'servers.check',
  'servers.importCliConfig',
  'servers.presets',
  'servers.addPreset',
  'servers.tokenStore',
  'enroll.start',
  'enroll.cancel',
  'connection.get',
  'watch.list',
  'watch.add',
  'watch.remove',
  'notifications.getSettings',
  'notifications.setSettings',
  'notifications.chooseCommand',
  'notifications.removeCommand',
  'notifications.recent',
  'notifications.activate',
  'workRequests.list',
  'workRequests.page',
  'users.names',
  'workRequests.needsMe',
  'workRequests.get',
  'workRequests.create',
  'workRequests.retry',
  'workRequests.explainFailure',
  'queue.estimate',
  'queue.status',
  'queue.stuck',
  'results.lintianTags',
  'workRequests.abort',
  'workRequests.setPriority',
  'workRequests.unblock',
  'workRequests.confirm',
  'workRequests.externalDebsignGet',
  'workRequests.externalDebsignComplete',
  'workflows.create',
  'workflowTemplates.list',
  'workflowTemplates.get',
  'workflowTemplates.create',
  'workflowTemplates.update',
  'workflowTemplates.delete',
  'artifacts.get',
  'relations.list',
  'relations.create',
  'assets.list',
  'assets.create',
  'assets.checkPermission',
  'collections.list',
  'collections.get',
  'collections.create',
  'collections.update',
  'collections.delete',
  'collections.items',
  'taskConfig.fetch',
  'taskConfig.push',
  'lookups.single',
  'lookups.multiple',
  'workspaces.getInheritance',
  'workspaces.setInheritance',
  'links.webui',
  'links.open',
  'files.pick',
  'files.release',
  'localArtifacts.detect',
  'localArtifacts.update',
  'localArtifacts.discard',
  'localArtifacts.list',
  'localArtifacts.kinds',
  'uploads.start',
  'uploads.list',
  'uploads.getSettings',
  'uploads.setSettings',
  'uploads.pause',
  'uploads.resume',
  'uploads.cancel',
  'uploads.retry',
  'downloads.save',
  'downloads.link',
  'downloads.cancel',
  'logs.open',
  'logs.openLive',
  'logs.info',
  'logs.lines',
  'logs.search',
  'logs.close',
  'logs.cancel',
  'signing.available',
  'signing.keyChoice',
  'signing.signAndComplete',
  'repositories.list',
  'repositories.templates',
  'repositories.create',
  'repositories.remember',
  'repositories.forget',
  'repositories.suites',
  'repositories.addSuite',
  'repositories.packages',
  'repositories.removePackage',
  'repositories.aptSetup',
  'repositories.setArchiveUrl',
  'repositories.tokens',
  'repositories.grantToken',
  'repositories.revokeToken',
  'repositories.dputProfile',
  'repositories.targets',
  'repositories.copyPackage',
] as const;
export type RequestChannel = (typeof REQUEST_CHANNELS)[number];

export const EVENT_CHANNELS = [
  'app.navigate',
  'session.changed',
  'servers.changed',
  'connection.state',
  'enroll.finished',
  'watch.changed',
  'workRequest.completed',
  'workRequests.changed',
  'upload.progress',
  'upload.finished',
  'notification.shown',
  'notification.desktop',
  'download.progress',
  'download.finished',
  'logs.progress',
] as const;
export type EventChannel = (typeof EVENT_CHANNELS)[number];

/**
 * Methods the bridge adds beside the requests: they run partly on the renderer's side of
 * the transport (the preload resolves dropped File objects with webUtils; the web client
 * streams them to the host's staging area), so main never receives a path from the page.
 */
export const LOCAL_METHODS = ['files.stageDropped'] as const;
export type LocalMethod = (typeof LOCAL_METHODS)[number];

/** Transport-level channels (Electron IPC names, web host message kinds). */
export const BRIDGE_EVENT_CHANNEL = 'debusine:event';
export const BRIDGE_READY_CHANNEL = 'debusine:ready';
/** Electron only: the preload says how many more events it has handed to the page. */
export const BRIDGE_ACK_CHANNEL = 'debusine:ack';
/** Electron only: the preload hands main the paths webUtils resolved for dropped files. */
export const STAGE_PATHS_CHANNEL = 'debusine:stage-paths';

export function isRequestChannel(value: unknown): value is RequestChannel {
  return typeof value === 'string' && (REQUEST_CHANNELS as readonly string[]).includes(value);
}

export function isEventChannel(value: unknown): value is EventChannel {
  return typeof value === 'string' && (EVENT_CHANNELS as readonly string[]).includes(value);
}

/** Splits `workRequests.retry` into its namespace and method (for building the objects). */
export function splitChannel(channel: string): [string, string] {
  const dot = channel.indexOf('.');
  return [channel.slice(0, dot), channel.slice(dot + 1)];
}
