/**
 * Local artifacts and transfers: the entry points the service and DebusineClient use.
 */
export { parseDeb822, type Deb822Document, type Deb822Paragraph } from './formats/deb822';
export { readChanges, readDsc, type ParsedControlFile } from './local/debian-files';
export { readDebControl, type DebControl } from './formats/deb-package';
export { hashFile, sha256File } from './hashing/checksums';
export { guessContentType } from './local/content-types';
export { LocalArtifact, localArtifactSchema, type LocalArtifactJson } from './local/local-artifact';
export { CATEGORIES, DATA_SCHEMAS, kindOfCategory, type KindName } from './local/kind-data';
export { validateLocalArtifact, type RuleOptions } from './local/kind-rules';
export * from './local/kinds-debian';
export * from './local/kinds-results';
export { detectKind, type Detection } from './local/detect';
export type {
  ProgressEvent,
  ProgressListener,
  FileProgress,
  TotalProgress,
} from './transfer/progress';
export { uploadFiles, type TransferOptions, type UploadFilesOptions } from './transfer/upload';
export {
  labelOf,
  planParts,
  resumeUploads,
  runUploadJob,
  startJob,
  uploadArtifact,
  workflowData,
  UPLOAD_RELATIONS,
  type JobOutcome,
  type ResumeOutcome,
  type UploadArtifactOptions,
  type UploadResult,
} from './transfer/upload-engine';
export {
  NO_RECORD,
  newJob,
  UploadJobStore,
  uploadJobSchema,
  type JobRecorder,
  type UploadJob,
  type UploadPart,
  type WorkflowPlan,
} from './transfer/job-store';
export {
  downloadArtifact,
  downloadArtifactFile,
  type DownloadArtifactOptions,
  type DownloadFileOptions,
  type DownloadOptions,
} from './transfer/download';
export { declaredFile, type DeclaredFile } from './transfer/declared-files';
export { createArtifact, getArtifact, type ClientLike } from './transfer/remote';
export { artifactPathProblem } from './formats/artifact-paths';
export { UploadedFiles, type WantedRemoteFile } from './transfer/uploaded-files';
