// The per-episode trace recorder: assigns event ids and simulated timestamps in order.
import { storedTextHash, type StoredTextRole, type TextSink, type TraceEvent, type TraceEventInput } from '../records/index.js';

/** Anything that tells simulated time in ms (the episode's SimRepo clock). */
export interface ClockLike {
  readonly now_ms: number;
}

/**
 * Records the ordered events of one episode; ids count from 0. Texts the events reference by hash (the messages a
 * model was sent, its thinking) go to `texts`, when given (a run's messages.jsonl); without one they are hashed
 * and dropped.
 */
export class Trace {
  readonly events: TraceEvent[] = [];
  constructor(
    private readonly clock: ClockLike,
    private readonly texts?: TextSink,
  ) {}

  /** Stores a message or thinking text and returns its content hash (storedTextHash) for an event to reference. */
  storeText(role: StoredTextRole, content: string): string {
    const hash = storedTextHash(role, content);
    this.texts?.put({ hash, role, content });
    return hash;
  }

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
