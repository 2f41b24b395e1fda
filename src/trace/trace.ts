// The per-episode trace recorder: assigns event ids and simulated timestamps in order.
import type { TraceEvent, TraceEventInput } from '../records/index.js';

/** Anything that tells simulated time in ms (the episode's SimRepo clock). */
export interface ClockLike {
  readonly now_ms: number;
}

/** Records the ordered events of one episode; ids count from 0. */
export class Trace {
  readonly events: TraceEvent[] = [];
  constructor(private readonly clock: ClockLike) {}

  /** Appends an event (taking ownership of the object) and returns its id. */
  emit(event: TraceEventInput): number {
    const id = this.events.length;
    // Callers pass a fresh object literal: stamping it in place saves a copy per event.
    const stamped = event as TraceEvent;
    stamped.id = id;
    stamped.t_ms = this.clock.now_ms;
    this.events.push(stamped);
    return id;
  }
}
