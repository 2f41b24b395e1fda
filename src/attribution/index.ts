// Public surface of attribution: the attribute function, the closed mode list, and the rule lists for tests and docs.
export { attribute, ACT_RULES, ENDING_RULES } from './attribute.js';
export { MODES, MODE_DEFINITIONS, allModes, type Component, type Mode } from './modes.js';
export type { AttributionTask, AttributionState, Finding, Rule, RuleInput } from './finding.js';
export { indexTrace, type TraceIndex } from './trace-index.js';
export { costFindings } from './findings.js';
export { judgeDeclaredRoles, readAsComponents, type DeclaredComponents } from './declared-roles.js';
