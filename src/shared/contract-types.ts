/**
 * The result and event payload shapes of the bridge contract (contract.ts). They are what
 * the renderer sees: plain, structured-clone and JSON safe, and never carrying a token.
 *
 * Server resources reuse the zod-inferred types of models.ts (normalised: a lookup's
 * `result_type` is always a letter (`a`, `b`, `c`), a workflow template always has
 * `task_data`, whichever server revision sent it).
 */
import type { SerializedError } from './errors';
import type { LogState } from './log-types';
import type { FailureReason } from './results/failure';
import type {
  AssetPermissionCheckResponse,
  CollectionItem,
  LookupSingleResponse,
  TaskConfigurationCollectionContents,
  TaskConfigurationCollectionUpdateResults,
  WorkRequestResponse,
} from './models';

export type {
  ArtifactResponse,
  AssetResponse,
  CollectionData,
  CollectionItem,
  RelationResponse,
  TaskConfigurationCollectionContents,
  TaskConfigurationCollectionUpdateResults,
  Whoami,
  WorkflowTemplateData,
  WorkRequestResponse,
  WorkspaceInheritanceChain,
} from './models';

export type * from './log-types';
export type { FailureReason } from './results/failure';
export type { LintianTags } from './results/lintian';

export type JsonObject = Record<string, unknown>;

export type AssetPermissionCheck = AssetPermissionCheckResponse;
/** A lookup result, normalised (`result_type` is `a`, `b` or `c`; `raw_result_type` as sent). */
export type LookupResult = LookupSingleResponse;
export type TaskConfigurationContents = TaskConfigurationCollectionContents;
export type TaskConfigurationUpdateResults = TaskConfigurationCollectionUpdateResults;
export type CollectionItemData = CollectionItem;

/** One page of work requests; `nextCursor` is opaque (main keeps the server's next URL). */
export interface WorkRequestPage {
  items: WorkRequestResponse[];
  nextCursor: string | null;
  /** Usernames of the creators on this page, by user id, where the server names them. */
  creators: Record<string, string>;
}

export interface AppInfo {
  name: string;
  version: string;
  platform: string;
  /** What the host the app runs in does its own way: what the UI offers depends on it. */
  capabilities: AppCapabilities;
}

/**
 * Where the hosts (Electron, the web host in a browser) differ in what the user sees. The
 * requests are the same on both; these say how each answers them, for the UI to offer
 * what works and to word it right.
 */
export interface AppCapabilities {
  /**
   * How downloads.save saves. `dialog`: main asks where in its own dialog, and writes there
   * itself, with download.progress and download.finished; a whole artifact can go into one
   * folder the user chooses. `browser`: each file is handed to the browser's own download,
   * which shows its progress; there is no folder to choose, so several files are saved one
   * by one.
   */
  saveDownload: 'dialog' | 'browser';
  /**
   * Who turns a dropped folder into its files. `page`: the browser gives a folder's files
   * only while the drop is handled, so the page walks it then. `main`: the bridge hands the
   * dropped folder itself to main, which walks it.
   */
  dropFolders: 'page' | 'main';
  /**
   * How the program run on completion is set. `dialog`: main asks for it in its own file
   * dialog (notifications.chooseCommand). `file`: only by editing its settings file, as a
   * page in a browser must not be able to name a program for main to run.
   */
  completionCommand: 'dialog' | 'file';
  /**
   * Who shows the desktop notifications. `desktop`: main, itself. `browser`: the page,
   * through the browser's notifications, once the user has allowed them.
   */
  notifications: 'desktop' | 'browser';
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
  /**
   * The signed-in user's id on this server (what `created_by` holds), once the app has
   * learned it; null until then. See src/main/identity/user-directory.ts.
   */
  userId: number | null;
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

/** A server suggested on first start; a sandbox preset's token stays in main. */
export interface ServerPreset {
  presetId: string;
  name: string;
  apiUrl: string;
  scope: string | null;
  defaultWorkspace: string | null;
  /** cli-config: the Debusine CLI's config.ini; sandbox: a local test server; public: a well-known one. */
  source: 'cli-config' | 'sandbox' | 'public';
  /** Whether adding it also stores a token (main keeps the token; the renderer never sees it). */
  hasToken: boolean;
  /** The id of a profile with the same API URL and scope, when there is one. */
  existingServerId: string | null;
}

export type TokenStoreKind = 'keyring' | 'file';

export interface TokenStoreInfo {
  kind: TokenStoreKind;
  /** False when the store cannot protect tokens well (a file, or safeStorage's basic_text). */
  secure: boolean;
  /** A sentence for the settings page. */
  description: string;
}

export interface EnrollStarted {
  enrollId: string;
  /** The phrase the web UI shows, for the user to compare. */
  challenge: string;
  confirmUrl: string;
  /** True when main opened confirmUrl in the system browser; false: the renderer shows it. */
  browserOpened: boolean;
}

export type ConnectionStatus =
  'connected' | 'reconnecting' | 'offline' | 'signed-out' | 'connecting';

/** The completion websocket of the active server, as the CompletionWatcher reports it. */
export interface ConnectionState {
  serverId: string | null;
  status: ConnectionStatus;
  /** When reconnecting: the ISO time of the next attempt. */
  nextAttemptAt: string | null;
  /** ISO time this status began. */
  since: string;
  error: SerializedError | null;
}

export interface WatchEntry {
  workRequestId: number;
  label: string | null;
  addedAt: string;
  lastStatus: string | null;
  lastResult: string | null;
  /** started: created from this app (watched automatically); user: added by hand. */
  source: 'started' | 'user';
  taskType: string | null;
  workspace: string | null;
  /** workflow_root, or null for a root or a standalone work request. */
  rootId: number | null;
}

export type NotifyMode = 'watched' | 'mine' | 'workspace';

/** What notifies: the part of the notification settings the bridge may change. */
export interface NotificationPreferences {
  /** watched: the watch list only; mine: plus what I started; workspace: all in `workspaces`. */
  mode: NotifyMode;
  /** For mode `workspace` (empty: every workspace the server reports). */
  workspaces: string[];
  failuresOnly: boolean;
  /** ISO time until which notifications are muted, or null. */
  snoozedUntil: string | null;
}

export interface NotificationSettings extends NotificationPreferences {
  /**
   * The program run on each completion (argv, no shell: the program, then any arguments
   * of its own; the work request id and the result follow); null when none is set. Read
   * only: main sets it from its own file dialog, or the user edits `commandFile`.
   */
  commandHook: { enabled: boolean; command: string[] } | null;
  /** The file the program to run is kept in, for the user to edit by hand. */
  commandFile: string;
  /** What is wrong with that file (naming it, and the line or field); null when nothing is. */
  commandProblem: string | null;
}

/** A notification main showed (or, in the web host, would have shown). */
export interface NotificationRecord {
  /** The work request it is about (for a step that waits for the user: that step). */
  workRequestId: number;
  title: string;
  body: string;
  /**
   * How the work request ended (shared/results/end.ts: its result, or `aborted`), or
   * `needs input` for a step that waits for the user.
   */
  result: string;
  /** ISO time. */
  shownAt: string;
  /** The workflow root it belongs to, or null. */
  rootId: number | null;
  /**
   * Why it failed and the log line that shows it (the failed step's, for a workflow), as
   * the desktop notification said; opening it opens the log there. Null when unknown.
   */
  reason: FailureReason | null;
  /**
   * An early warning's (the step still runs, and its build cannot succeed): the line
   * (0-based) of the step's live log where it broke; the list opens the live log there, as
   * the desktop notification's "Open log here" does. Absent for every other notification.
   */
  liveLine?: number;
  /**
   * The server profile whose watcher showed it (null: none named). Work request ids are per
   * server: the app lists the active server's notifications only.
   */
  serverId: string | null;
}

/**
 * A desktop notification for the page to show, where main has no desktop of its own (the
 * web host): the same title and body Electron's notification shows (marks in place of
 * characters that show nothing), to be shown as text, never as markup.
 */
export interface PageNotification {
  /** The same key again replaces the notification; notifications.activate names it. */
  key: string;
  title: string;
  body: string;
  /** The work request it is about. */
  workRequestId: number;
  /** critical: a failure, or a step that waits for the user; it stays until dismissed. */
  urgency: 'normal' | 'critical';
}

/** A file main holds on the renderer's behalf: the id is all the renderer gets. */
export interface StagedFile {
  id: string;
  name: string;
  size: number;
}

export interface LocalArtifactProblem {
  /** The file-set rule that failed (`missing-file`, `extra-file`, `kind`, …). */
  rule: string;
  message: string;
  file?: string;
}

/** A local artifact being prepared for upload; it lives in main, the renderer holds its id. */
export interface LocalArtifactDraft {
  draftId: string;
  /** null when no kind fits the files (see problems); set one with localArtifacts.update. */
  kind: string | null;
  category: string | null;
  /** Why this kind was chosen. */
  reason: string;
  /** The files the artifact takes, as they will be named on the server. */
  files: { fileId: string; pathInArtifact: string; size: number }[];
  /**
   * Files the dropped .changes or .dsc lists that were not dropped but were found beside
   * it, in the user's folder (Electron only), and are uploaded too.
   */
  beside: { name: string; size: number; folder: string }[];
  /** Dropped files the artifact does not take (or the user excluded). */
  excludedFileIds: string[];
  /** Those of them the user left out (the others no kind takes, or this kind does not). */
  userExcludedFileIds: string[];
  /** Every file the draft was made of, as staged: names and sizes for its file list. */
  dropped: StagedFile[];
  data: JsonObject;
  problems: LocalArtifactProblem[];
  allowRemote: boolean;
  /** True when there are files and no problems: uploads.start will accept it. */
  ready: boolean;
  /**
   * Every artifact the upload makes, the draft's own first: for a .changes, as dput-ng makes
   * them (the upload, its source package, a binary package per .deb), related by the first.
   */
  parts: { category: string; label: string }[];
  /** Packages a .changes names that the upload will not make, and why. */
  notes: string[];
  /** For a .changes: the workflow the user's dput-ng profile starts after the upload. */
  workflow: WorkflowProposal | null;
}

/** What dput would do after uploading this .changes to the active server. */
export interface WorkflowProposal {
  /**
   * The dput-ng profile, and the files it was read from ("built in" for the app's own); null
   * when the server has none and the proposal offers only the user's suites.
   */
  profile: string | null;
  profileFiles: string[];
  /** The .changes' Distribution the template is chosen for. */
  distribution: string;
  /** null when the profile names none for this Distribution (see problem). */
  template: string | null;
  /** Where dput uploads and starts the workflow: the profile's debusine_workspace. */
  workspace: string | null;
  /** The task data, with "@UPLOAD@" standing for the upload's artifact. */
  data: JsonObject;
  /** Why the workflow cannot be started (no template for the Distribution, none on the server). */
  problem: string | null;
  /** Start it without asking (the setting), rather than offer it. */
  always: boolean;
  /**
   * The suites of the user's repositories on this server that the upload can be published
   * to instead, each by its `publish-to-<suite>` template in its own workspace.
   */
  targets: PublishTarget[];
}

/** A suite of one of the user's repositories, and the template that publishes to it. */
export interface PublishTarget {
  workspace: string;
  suite: string;
  template: string;
}

/** The dput-ng profile the app writes for a repository, so that dput publishes as it does. */
export interface RepositoryDputProfile {
  /** The profile's name: `dput NAME foo.changes`. */
  name: string;
  file: string;
  /** The suites it publishes to, by the Distribution of the .changes. */
  suites: string[];
}

export interface UploadSettings {
  dputWorkflow: 'offer' | 'always';
}

/** One artifact of an upload job. */
export interface UploadPartView {
  category: string;
  label: string;
  artifactId: number | null;
  state: 'waiting' | 'sending' | 'done';
  /** Files the server waits for that the app has no copy of: the artifact stays incomplete. */
  missing: string[];
}

export interface ArtifactKindInfo {
  kind: string;
  category: string;
}

export type TransferState = 'queued' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

export interface UploadFileState {
  path: string;
  sentBytes: number;
  totalBytes: number;
  state: 'pending' | 'active' | 'done' | 'skipped' | 'failed';
}

export interface UploadJob {
  jobId: string;
  /** null for a job resumed after a restart (its draft is gone). */
  draftId: string | null;
  state: TransferState;
  category: string;
  workspace: string;
  /** A short label for lists: the main file's name. */
  label: string;
  sentBytes: number;
  totalBytes: number;
  files: UploadFileState[];
  /** Bytes per second over the last seconds, 0 when idle. */
  speed: number;
  /** Seconds left at that speed, or null while unknown. */
  eta: number | null;
  /** The server the job uploads to: its ids mean something there only. */
  apiUrl: string;
  /** The first part's artifact (the upload, for a .changes). */
  artifactId: number | null;
  /** Every artifact the job makes, in order. */
  parts: UploadPartView[];
  /** Relations made from the first artifact, of those to make. */
  relations: { made: number; total: number };
  /** The workflow the job starts once the artifacts are complete. */
  workflow: {
    template: string;
    workspace: string;
    distribution: string | null;
    workRequestId: number | null;
    /** The suite of the user's repository it publishes to; null for dput's workflow. */
    suite: string | null;
  } | null;
  createdAt: string;
  /** True for a job found in the data directory at startup. */
  resumed: boolean;
  error: SerializedError | null;
  /**
   * False for a failure that running the job again would meet again (a file changed since
   * it was made, a remote file the server does not hold): only a new upload helps.
   */
  retryable: boolean;
}

/** A same-origin URL (web host) for an <a download>; it works once, and expires. */
export interface DownloadLink {
  url: string;
  /** The file name the browser should save as. */
  name: string;
  expiresAt: string;
}

export interface SigningAvailability {
  available: boolean;
  debsign: boolean;
  gpg: boolean;
  /** Why it is not available, for the UI. */
  message: string | null;
}

/** One of the user's OpenPGP secret keys that can sign, as gpg lists it. */
export interface SigningKey {
  /** The primary key's fingerprint: upper-case hex, 40 (v4) or 64 (v5) digits. */
  fingerprint: string;
  /** Its last 16 hex digits, as gpg shows a long key id. */
  keyId: string;
  /** Its valid user ids ("Name <email>"), as gpg decodes them. */
  userIds: string[];
}

/** A field of the upload to be signed, beside the one of the upload this app made. */
export interface SigningReviewField {
  name: 'Source' | 'Version' | 'Distribution' | 'Architecture' | 'Changed-By' | 'Maintainer';
  /** In the upload to be signed (its .changes), bounded and with invisible characters shown. */
  value: string;
  /** In the upload this app made; null where it made none or does not record the field. */
  made: string | null;
  /** Whether the two differ (false where nothing was recorded to compare with). */
  differs: boolean;
}

/**
 * A file of the upload to be signed, or one its .dsc lists. `state` against the upload this
 * app made: `same` (same SHA-256), `changed`, `not-in-your-upload` (the app sent and named
 * no file of that name), `not-in-this-upload` (the .dsc lists it, the upload does not hold
 * it), `unknown` (no upload of this app to compare with).
 */
export interface SigningReviewFile {
  name: string;
  /** Its SHA-256 in the upload to be signed (for `not-in-this-upload`, as the .dsc lists it). */
  sha256: string | null;
  size: number | null;
  /** Which control files list it. */
  listedBy: ('.changes' | '.dsc')[];
  state: 'same' | 'changed' | 'not-in-your-upload' | 'not-in-this-upload' | 'unknown';
  /** Its SHA-256 in the upload this app made, when that had one of this name. */
  made: string | null;
}

/**
 * What "Sign and upload" would sign: the step's unsigned upload (the artifact its dynamic
 * data names, the one signed) compared with the uploads this app made on that server.
 * `same`: the same source, version, Distribution and files (the .dsc's listed files
 * included) as one of them, which signs without a question. `differs` and `not-made-here`
 * sign only once the user confirmed this review (its `digest`).
 */
export interface SigningReview {
  artifactId: number;
  workspace: string;
  verdict: 'same' | 'differs' | 'not-made-here';
  /** One line for the user: "This is the upload you made from this machine on …", or why not. */
  summary: string;
  /** The upload of this app it was compared with. */
  made: { at: string; artifactId: number; workspace: string; workflowId: number | null } | null;
  fields: SigningReviewField[];
  files: SigningReviewFile[];
  /** Each difference, one line each, in the order of `fields` then `files`. */
  differences: string[];
  /** The .changes that would be signed: its name and text (bounded; `truncated` says so). */
  changes: { name: string; text: string; truncated: boolean };
  /** Names this review: signing after a confirmation signs only while it still holds. */
  digest: string;
}

/**
 * The key debsign would sign a waiting step's upload with, as signing chooses it: named by
 * DEBSIGN_KEYID in the devscripts files, else the secret key for the address of the
 * maintainer debsign signs as (DEBSIGN_MAINT, else the .changes' Changed-By, else its
 * Maintainer). Exactly one key named signs; with none or several, the user chooses.
 */
export interface SigningKeyChoice {
  /** What would be signed, compared with the uploads this app made on the server. */
  review: SigningReview;
  /** The secret keys the rule that applies names: none, one, or several. */
  named: SigningKey[];
  /** Every secret key that can sign, for signing with another. */
  keys: SigningKey[];
  /**
   * Why that key, or why none or several: which variable or field was read, from where,
   * and what it holds (text of the .changes on one line, bounded, invisible characters
   * shown as marks).
   */
  reason: string;
}

/**
 * What signing a waiting step did: signed, uploaded and completed; or nothing yet, because
 * the key to sign with is the user's to choose (SigningKeyChoice names none or several:
 * `keys` are the several, else every secret key, and `reason` its reason); asked again
 * with `key`, it signs.
 */
export type SigningResult =
  | {
      status: 'signed';
      workRequest: WorkRequestResponse;
      signedArtifactId: number;
      key: SigningKey;
      /** Why this key: SigningKeyChoice's reason, or that the user chose it. */
      keyReason: string;
    }
  | { status: 'choose-key'; keys: SigningKey[]; reason: string }
  /**
   * Nothing was signed: the upload is not one this app made as it is, or not the one the
   * page showed, and the user has to look at `review` and confirm it first.
   */
  | { status: 'review'; review: SigningReview; reason: string };

/**
 * What downloads.save did. `app`: main downloads it where the user chose (`destination`,
 * the name of the chosen file or folder, to show), one job per artifact, which
 * download.progress and download.finished report. `browser`: it was handed to the
 * browser's own download as `name`, and the browser shows its progress.
 */
export type SavedDownload =
  | { savedBy: 'app'; destination: string; jobs: DownloadJob[] }
  | { savedBy: 'browser'; name: string };

export interface DownloadJob {
  jobId: string;
  artifactId: number;
  state: TransferState;
  receivedBytes: number;
  totalBytes: number | null;
  error: SerializedError | null;
}

/**
 * Where a deep link (a Debusine web URL, or debusine-desktop:) or a click on a desktop
 * notification asks the app to go; a burst's summary notification opens the list. Always
 * on the active server: main makes the server the link or notification was for active
 * before it sends this (src/main/service/navigation.ts).
 */
export type NavigateTarget =
  | { kind: 'work-request'; id: number }
  /**
   * A text file of an artifact at a line (0-based): a failure's log at the line that says
   * why (a failure notification's click, with its work request), or a link to a line.
   */
  | { kind: 'log'; workRequestId: number | null; artifactId: number; path: string; line: number }
  /** The live log of a running step, at a line (0-based) when one is named. */
  | { kind: 'live-log'; workRequestId: number; line: number | null }
  | { kind: 'artifact'; id: number }
  | { kind: 'work-requests' };

/**
 * The server a navigation made active, when it was not the active one: its name and its
 * host (in punycode where it is not ASCII), so that the window can say which server it now
 * shows, and a look-alike name cannot pass for another server.
 */
export interface ServerSwitch {
  profileId: string;
  name: string;
  host: string;
}

/** What opening a pasted address did: shown (on the server it names), or why not. */
export type LinkOutcome =
  { shown: NavigateTarget; switchedTo?: ServerSwitch } | { refused: string };

/** Every event main sends, with its payload. */
/** A `create_child_workspace` template a repository can be made from. */
export interface RepositoryTemplate {
  /** The workspace that has it; the repository is made below it. */
  workspace: string;
  name: string;
  /** experiment: the server removes it `expirationDays` after its last task; kept: never. */
  kind: 'experiment' | 'kept';
  expirationDays: number | null;
  /** The new workspace is `<prefix>-<suffix>`. */
  prefix: string;
}

/** A repository the app knows on the active server. */
export interface RepositoryEntry {
  workspace: string;
  kind: 'experiment' | 'kept' | 'named';
  public: boolean | null;
  addedAt: string;
  /**
   * creating: its workflow runs; failed: it ended without making it; gone: the server has it
   * no more (an experiment expires), or no longer lets the user see it.
   */
  state: 'creating' | 'ready' | 'failed' | 'gone';
  workflowId: number | null;
  /** Why it failed or is gone, when it is. */
  message: string | null;
}

export interface RepositorySuite {
  name: string;
  components: string[];
  architectures: string[];
  /** The `publish-to-<suite>` template of the workspace, when it has one. */
  publishTemplate: string | null;
}

export interface RepositoryPackage {
  /** The item's name in the suite (`NAME_VERSION`, or `NAME_VERSION_ARCH` for a binary). */
  name: string;
  kind: 'source' | 'binary';
  package: string;
  version: string;
  architecture: string | null;
  component: string | null;
  section: string | null;
}

/** What a user puts on their system to install from one suite with apt. */
export interface AptSetup {
  archiveUrl: string;
  /** Whether archiveUrl is the default (`deb.<API host>`), not one the user gave. */
  archiveUrlIsDefault: boolean;
  repositoryUri: string;
  /**
   * Null when the archive host answered (whatever it said); otherwise why it did not, e.g.
   * "connection refused: nothing listens there". apt on this machine would meet the same.
   */
  archiveProblem: string | null;
  /**
   * present: `sources` has the key inline; not-yet: the archive has no key until its first
   * publication (sources is then null); mismatch: the key the server gave is not the one
   * it says the archive signs with (sources is null).
   */
  keyState: 'present' | 'not-yet' | 'mismatch';
  /**
   * Whether the suite holds anything. With no key, false means none is due yet (the first
   * publication makes it); true means the packages are there and the key is late.
   */
  suiteHasPackages: boolean;
  /** Computed from the key itself, not taken from the server. */
  keyFingerprints: string[];
  /** The deb822 `.sources` entry, or null without a key to trust. */
  sources: string | null;
  fileName: string;
  debuginfod: string;
  /** Whether apt needs a login (auth.conf), and so HTTPS; null when it could not be told. */
  private: boolean | null;
}

export interface ViewerToken {
  tokenHash: string;
  username: string | null;
  comment: string | null;
  role: string;
}

/** A token just granted: its key is shown this once, with the auth.conf line for it. */
export interface GrantedViewerToken extends ViewerToken {
  key: string;
  authConf: string;
}

export interface EventPayloads {
  /** Where to go, and the server profile it is on (main made that one active first). */
  'app.navigate': NavigateTarget & { server: string | null; switchedTo?: ServerSwitch };
  'session.changed': SessionInfo;
  'servers.changed': { serverIds: string[] };
  'connection.state': ConnectionState;
  'enroll.finished': {
    enrollId: string;
    outcome: 'confirm' | 'cancel' | 'error';
    error: SerializedError | null;
  };
  'watch.changed': { workRequestIds: number[] };
  /**
   * A work request ended: a completion from the server's websocket, or an end main found
   * by reading it (a workflow the server aborted, which no completion message tells).
   */
  'workRequest.completed': {
    workRequestId: number;
    completedAt: string;
    /** `completed`, or `aborted` (whose result is empty). */
    status: string;
    result: string;
    workspace: string | null;
    workflowRoot: number | null;
  };
  'workRequests.changed': { ids: number[] };
  /** `file`: the path in the artifact whose progress changed, or null for a total update. */
  'upload.progress': UploadJob & { file: string | null };
  'upload.finished': UploadJob;
  'notification.shown': NotificationRecord;
  /** A desktop notification for the page to show (web host only: Electron shows its own). */
  'notification.desktop': PageNotification;
  'download.progress': DownloadJob;
  'download.finished': DownloadJob;
  /** A log open in the viewer read more of its file, finished, or failed. */
  'logs.progress': LogState;
}

/**
 * Where a step stands in the server's queue, and how long such steps usually take: the
 * server's own numbers (service-status, its start-latency metrics, its task history), never
 * a guess. What the server could not tell is said in `missing`.
 */
export interface QueueEstimate {
  workRequestId: number;
  /** For a pending step a worker must take: its place in the scheduler's order. */
  position: {
    architecture: string | null;
    /** Pending work the user can see that a worker takes first. */
    ahead: number;
    /** Pending work of that architecture the user cannot see (any may be ahead); null: not counted. */
    hidden: number | null;
    /** Only the newest pending work requests were read: `ahead` is then a lower bound. */
    truncated: boolean;
    workers: { registered: number; connected: number; idle: number; busy: number } | null;
  } | null;
  /** How long its task usually waits to start (a bucket bound of the server's histogram). */
  usualStart:
    | { kind: 'within' | 'longer'; seconds: number; samples: number }
    | { kind: 'unknown'; reason: 'no-metrics' | 'too-few'; samples: number }
    | null;
  /**
   * The last successful run like it (same task, subject and context), once the server says
   * them; for a running workflow root, the last success of the same workflow for the same
   * package in its workspace, from start to end.
   */
  usualRun: { seconds: number; endedAt: string | null; workRequestId: number | null } | null;
  /**
   * Whether the task history was asked: a step's package and architectures are known only
   * once it starts, so a pending step's usual run is mostly not asked, rather than none.
   */
  historyAsked: boolean;
  /** What could not be read, in words ("the queue's counts: …"). */
  missing: string[];
}

/** The server's queue, per architecture, as `service-status/` counts it for anyone. */
/** The user's watched work that no worker can start: none of its architecture is connected. */
export interface QueueStuck {
  /** Per architecture (null: any would do, and none at all is connected), in name order. */
  architectures: { name: string | null; waiting: number }[];
  /** The pending steps that cannot start, the newest first. */
  workRequestIds: number[];
}

export interface QueueStatus {
  architectures: {
    name: string;
    workers: { registered: number; connected: number; idle: number; busy: number };
    pending: number;
    running: number;
  }[];
  /** Why there are no numbers (an older server has no `service-status/`), or null. */
  unavailable: string | null;
}
