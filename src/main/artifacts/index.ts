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
export type { ProgressEvent, ProgressListener, FileProgress, TotalProgress } from './progress';
export { uploadFiles, type TransferOptions, type UploadFilesOptions } from './upload';
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
} from './upload-engine';
export {
  NO_RECORD,
  newJob,
  UploadJobStore,
  uploadJobSchema,
  type JobRecorder,
  type UploadJob,
  type UploadPart,
  type WorkflowPlan,
} from './job-store';
export {
  downloadArtifact,
  downloadArtifactFile,
  type DownloadArtifactOptions,
  type DownloadFileOptions,
  type DownloadOptions,
} from './download';
export { declaredFile, type DeclaredFile } from './declared-files';
export { createArtifact, getArtifact, type ClientLike } from './remote';
export { artifactPathProblem } from './formats/artifact-paths';
