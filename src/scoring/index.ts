// Public surface of scoring.
export * from './checks.js';
export * from './score.js';
