// records/: the zod schemas of every shape that crosses a folder (trace events, episode record, run.json,
// summary.json, messages.jsonl), the schema version and the canonical JSON. A leaf: it imports nothing of ours.
export * from './agent-process.js';
export * from './canonical-json.js';
export * from './counterfactual.js';
export * from './episode-record.js';
export * from './outcome.js';
export * from './roles.js';
export * from './run-file.js';
export * from './schema-version.js';
export * from './summary-file.js';
export * from './trace-events.js';
export * from './trajectory.js';
export * from './stored-text.js';
