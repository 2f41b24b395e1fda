// Public surface of the trace module: the per-episode recorder (the event shapes are in records/).
export * from './trace.js';
