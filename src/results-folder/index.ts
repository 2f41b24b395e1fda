// results-folder/: the one owner of a results folder's files — writing, reading, validating, resuming, merging.
export { EPISODES_FILE, RUN_FILE, SUMMARY_FILE, parseEpisodes, readResultsFolder, readRunFile, type ResultsFolder, type ReadResult } from './read.js';
export { EpisodeWriter, OutputFolderError, prepareOutputFolder, writeJsonFile, writeRunFile, writeSummaryFile } from './write.js';
export { inShard, loadForResume, mergeFolders, parseShard, ResumeError } from './resume.js';
export { collectMessages, MESSAGES_FILE, openMessageStore, parseMessages, readMessages, writeMessages, type MessageStore } from './messages.js';
