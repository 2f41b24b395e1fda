// Public surface of the trace module.
export * from './events.js';
export * from './trace.js';
