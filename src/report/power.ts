// Entry point of report/ for `stratbench power`: sample size and detectable effect of a paired comparison.
export {
  DEFAULT_POWER_EPOCHS,
  DEFAULT_TASK_CORRELATION,
  detectableEffects,
  epochVarianceFactor,
  familyDesignEffectBound,
  pairedPower,
  pairedSampleSize,
  tasksNeeded,
  type PowerAssumptions,
  type PowerRow,
} from './statistics-power.js';
export { estimatePowerInputs, intraclassCorrelation, type PairPowerEstimate, type PowerEstimate } from './statistics-power-estimate.js';
export { powerNotes, renderPowerText, type PowerReport, type PowerSource } from './power-table.js';
