// The shapes of the attribution check's trials: one faulted episode and the truth its fault injected.
import type { Attribution } from '../src/records/index.js';

/** The truth a fault injects: its role, its mode, and the model_call that carried its marker (the first erroneous event). */
export interface Truth {
  component: string;
  mode: string;
  event: number;
}

/** One faulted episode. `key`: task|strategy|epoch|fault; `struck`: the marker is in the trace; `failed`: it did not succeed. */
export interface Trial {
  key: string;
  fault: string;
  task: string;
  strategy: string;
  struck: boolean;
  failed: boolean;
  truth?: Truth;
  attribution: Attribution | null;
  /** `component.mode` of each finding (costs on a success), when the episode succeeded despite the fault. */
  findings?: string[];
}
