// results-folder/: the one owner of a results folder's files — writing, reading, validating, resuming, merging.
export {
  EPISODES_FILE,
  EPISODES_GZ_FILE,
  RUN_FILE,
  SUMMARY_FILE,
  openResultsFolder,
  parseEpisodes,
  readRunFile,
  type OpenedResultsFolder,
  type ResultsFolder,
  type ReadResult,
} from './read.js';
export {
  claimRunFile,
  EpisodeWriter,
  type EpisodeWriterOptions,
  OutputFolderError,
  prepareOutputFolder,
  writeJsonFile,
  writeRunFile,
  writeSummaryFile,
} from './write.js';
export { inShard, loadForResume, mergeFolders, parseShard, referencesMissingText, ResumeError, type ResumeEpisodes } from './resume.js';
export { collectMessages, MESSAGES_FILE, openMessageStore, parseMessages, readMessages, writeMessages, type MessageStore } from './messages.js';
export {
  checkFolderNotInUse,
  commandLine,
  FolderLockedError,
  FolderLockLostError,
  lockResultsFolder,
  LOCK_FILE,
  type FolderLock,
} from './lock.js';
export { describeCompleteness, MatrixPositions, matrixCells, missingCells, sliceCells, type CompletenessSource, type MatrixCell } from './completeness.js';
export { readResultsFolder, scanEpisodes, type EpisodeVisitor, type LineAt, type ScanReport } from './episode-stream.js';
export { EpisodeFileError, GZIP_LEVEL, locateEpisodes, type EpisodesLocation } from './episode-file.js';
export { asDiskWriteError, type Disk, DISK_FAULT_EXIT_CODE, diskFaultCode, DiskReadError, DiskWriteError, NODE_DISK, removePartialFile } from './disk.js';
export { openEpisodeLineReader, type EpisodeLineReader } from './episode-at.js';
