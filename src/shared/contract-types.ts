/**
 * The result and event payload shapes of the bridge contract (contract.ts). They are what
 * the renderer sees: plain, structured-clone and JSON safe, and never carrying a token.
 *
 * Server resources reuse the zod-inferred types of models.ts. Resources models.ts does not
 * describe yet (issue 4 adds them) use the loose `ServerObject` below until it does.
 */
import type { SerializedError } from './errors';

export type { Whoami, WorkRequestResponse } from './models';

export type JsonObject = Record<string, unknown>;

/** A server object as it arrives, until models.ts has its schema (issue 4). */
export interface ServerObject {
  id: number;
  links?: Record<string, unknown>;
  [field: string]: unknown;
}

export type ArtifactResponse = ServerObject;
export type RelationResponse = ServerObject;
export type AssetResponse = ServerObject;
export type AssetPermissionCheck = JsonObject & { has_permission: boolean };
export type CollectionData = ServerObject;
export type WorkflowTemplateData = ServerObject;
export type LookupResult = JsonObject;
export type TaskConfigurationContents = JsonObject;
export type TaskConfigurationUpdateResults = JsonObject & {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
};
export interface WorkspaceInheritanceChain {
  chain: { id?: number | null; scope?: string | null; workspace?: string | null }[];
  links?: Record<string, unknown>;
}

export interface AppInfo {
  name: string;
  version: string;
  /** How this renderer reaches main. */
  transport: 'electron' | 'web';
  platform: string;
}

/** A server as the renderer may know it: no token, only whether one is stored. */
export interface ServerSummary {
  id: string;
  name: string;
  apiUrl: string;
  scope: string | null;
  defaultWorkspace: string | null;
  hasToken: boolean;
}

export interface ServerProfile extends ServerSummary {
  /** The web UI root, derived from the API URL. */
  webUrl: string;
  active: boolean;
}

export interface SessionInfo {
  server: ServerSummary | null;
  /** The user the server reports; null when no server is active or it is unreachable. */
  user: string | null;
  authenticated: boolean;
}

export interface ServerCheck {
  serverId: string;
  reachable: boolean;
  authenticated: boolean;
  user: string | null;
  /** Why it failed, when it did. */
  error: SerializedError | null;
}

export interface CliConfigImport {
  /** Where main found the file (its standard location; the renderer never names it). */
  source: string;
  servers: { name: string; apiUrl: string; scope: string | null; hasToken: boolean }[];
  imported: number;
}

export interface EnrollStarted {
  enrollId: string;
  /** The phrase the web UI shows, for the user to compare. */
  challenge: string;
  confirmUrl: string;
}

export type ConnectionStatus = 'offline' | 'connecting' | 'online' | 'signed-out' | 'error';

export interface ConnectionState {
  serverId: string | null;
  status: ConnectionStatus;
  since: string;
  error: SerializedError | null;
}

export interface WatchEntry {
  workRequestId: number;
  label: string | null;
  addedAt: string;
  lastStatus: string | null;
  lastResult: string | null;
}

export interface NotificationSettings {
  enabled: boolean;
  onSuccess: boolean;
  onFailure: boolean;
  onNeedsInput: boolean;
  /** ISO time until which notifications are muted, or null. */
  snoozedUntil: string | null;
}

/** A file main holds on the renderer's behalf: the id is all the renderer gets. */
export interface StagedFile {
  id: string;
  name: string;
  size: number;
}

export interface LocalArtifactDraft {
  draftId: string;
  kind: string;
  category: string;
  files: { fileId: string; pathInArtifact: string; size: number }[];
  data: JsonObject;
  problems: { rule: string; message: string; file?: string }[];
}

export type TransferState = 'queued' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

export interface UploadJob {
  jobId: string;
  draftId: string;
  state: TransferState;
  sentBytes: number;
  totalBytes: number;
  artifactId: number | null;
  error: SerializedError | null;
}

export interface DownloadDestination {
  destinationId: string;
  /** For display only ("…/Downloads/foo.dsc"). */
  label: string;
}

export interface DownloadJob {
  jobId: string;
  artifactId: number;
  state: TransferState;
  receivedBytes: number;
  totalBytes: number | null;
  error: SerializedError | null;
}

/** Where a deep link (a Debusine web URL, or debusine-desktop:) asks the app to go. */
export type NavigateTarget =
  | { kind: 'work-request'; id: number; origin: string | null }
  | { kind: 'artifact'; id: number; origin: string | null };

/** Every event main sends, with its payload. */
export interface EventPayloads {
  'app.navigate': NavigateTarget;
  'session.changed': SessionInfo;
  'servers.changed': { serverIds: string[] };
  'connection.state': ConnectionState;
  'enroll.finished': {
    enrollId: string;
    outcome: 'confirm' | 'cancel' | 'error';
    error: SerializedError | null;
  };
  'watch.changed': { workRequestIds: number[] };
  'workRequest.completed': {
    workRequestId: number;
    completedAt: string;
    result: string;
    workspace: string | null;
    workflowRoot: number | null;
  };
  'workRequests.changed': { ids: number[] };
  'upload.progress': UploadJob & { file: string | null };
  'upload.finished': UploadJob;
  'download.progress': DownloadJob;
  'download.finished': DownloadJob;
}
