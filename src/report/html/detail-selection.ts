// Which episode details a report inlines — the first ones in the report's order that fit its size budget — decided
// while the details arrive in file order, holding at most about the budget in encoded details.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { EpisodeRecord } from '../../records/index.js';

/**
 * Deflate level of inlined details: 6 (zlib's default). Measured on the 1,737 details inlined from the 105,000-episode
 * bench folder (scripts/bench-html-report.ts --large; core-suite traces, 9,280 bytes of JSON each): level 1 2,671
 * bytes of base64 a detail in 66 µs, 3 2,573 B / 63 µs, 6 2,414 B / 83 µs, 9 2,411 B / 86 µs. 6 fits 10% more traces
 * in the budget than 1 and as many as 9; only the details of the batches read near the budget's cut (~3,000) are
 * deflated, so the level costs ~0.1 s a build either way (decision 0042).
 */
export const DETAIL_GZIP_LEVEL = 6;

/** base64 of gzip(text) at DETAIL_GZIP_LEVEL: what the page decodes with DecompressionStream('gzip'). */
export const encodeDetail = (json: string): string => gzipSync(json, { level: DETAIL_GZIP_LEVEL }).toString('base64');

/** sha-256 of a detail's JSON: identical details (the same trace in several epochs) share one inlined copy. */
export const detailKey = (json: string): string => createHash('sha256').update(json).digest('base64');

/**
 * A 32-bit fingerprint of what an episode's detail holds (the outcome, checks, and every trace event's numbers and
 * strings, long strings sampled): equal details have equal fingerprints, so only episodes whose fingerprint matches an
 * inlined one's need their detail serialised and hashed to be shared. No serialisation. Pure.
 */
export function detailFingerprint(record: EpisodeRecord): number {
  let hash = 0x811c9dc5;
  const mix = (value: number) => {
    hash = Math.imul(hash ^ (value | 0), 0x01000193);
    hash = Math.imul(hash ^ Math.floor(value / 2 ** 32), 0x01000193);
  };
  const mixText = (text: string) => {
    mix(text.length);
    const step = Math.max(1, text.length >> 5);
    for (let i = 0; i < text.length; i += step) mix(text.charCodeAt(i));
  };
  const mixValue = (value: unknown) => {
    if (typeof value === 'string') mixText(value);
    else if (typeof value === 'number') mix(value);
    else if (typeof value === 'boolean') mix(value ? 1 : 2);
    else if (value === null || value === undefined) mix(-1);
    else mix(-2);
  };
  for (const value of Object.values(record.outcome)) mixValue(value);
  mix(record.checks.length);
  for (const check of record.checks) {
    mix(check.pass ? 1 : 0);
    mixText(check.detail);
  }
  mix(record.trace.length);
  for (const event of record.trace) for (const value of Object.values(event)) mixValue(value);
  return hash >>> 0;
}

/** Candidates read in the first batch; later batches are sized from the details seen (see DetailSelection.nextBatch). */
const FIRST_BATCH = 512;

/**
 * Decides which candidate details are inlined: candidates are ranked (rank 0 first: failures, then the sample), and
 * the inlined ones are the longest prefix of the ranking whose distinct details fit `budget` bytes of base64 (a
 * detail equal to one ranked earlier costs nothing and shares its copy). The caller reads the records in batches
 * (`nextBatch`: file positions in file order, so a gzip member is inflated once a batch) and `offer`s each: a batch
 * of the next ranks, sized from the mean detail seen so far to about fill the budget (usually one or two batches),
 * until the first detail that does not fit; then one batch of the episodes left out whose fingerprint equals an
 * inlined one's, to share equal details. Candidates are deflated as offered (a batch overshoots the cut by at most
 * about as many as it holds); memory: one batch of deflated details.
 */
export class DetailSelection {
  private nextRank = 0;
  private used = 0;
  private done = false;
  private sharing = false;
  private readonly details: string[] = [];
  private readonly slotOfKey = new Map<string, number>();
  private readonly slotOf: Int32Array;
  /** The last batch's details, deflated as they are offered (a batch's JSON would be ~10× larger held until settled). */
  private batch = new Map<number, { key: string; encoded: string | null }>();

  /**
   * `rankToIndex[rank]`: the file position of the candidate of that rank; `fingerprints[position]`
   * (detailFingerprint) of every episode.
   */
  constructor(
    private readonly rankToIndex: Int32Array,
    private readonly budget: number,
    private readonly fingerprints: Uint32Array,
    episodes: number,
  ) {
    this.slotOf = new Int32Array(episodes).fill(-1);
  }

  /** The detail JSON of the episode at file `position`, one of the last batch's. */
  offer(position: number, json: string): void {
    this.batch.set(position, { key: detailKey(json), encoded: this.sharing ? null : encodeDetail(json) });
  }

  /** Walks the offered batch in rank order (or, sharing, matches keys); returns whether the cut was reached. */
  private settle(ranks: readonly number[]): void {
    for (const rank of ranks) {
      const position = this.rankToIndex[rank] as number;
      const offered = this.batch.get(position);
      if (offered?.encoded == null) throw new Error(`DetailSelection: the detail at position ${position} was not offered`);
      const { key, encoded } = offered;
      const slot = this.slotOfKey.get(key);
      if (slot !== undefined) {
        this.slotOf[position] = slot;
        continue;
      }
      if (this.used + encoded.length > this.budget) {
        this.done = true;
        return;
      }
      this.used += encoded.length;
      const added = this.details.push(encoded) - 1;
      this.slotOfKey.set(key, added);
      this.slotOf[position] = added;
    }
  }

  private pendingRanks: number[] = [];

  /** The file positions (ascending) to read and offer next, or null when the selection is complete. */
  nextBatch(): number[] | null {
    if (this.sharing) {
      for (const [position, offered] of this.batch) this.slotOf[position] = this.slotOfKey.get(offered.key) ?? -1;
      this.batch = new Map();
      return null;
    }
    this.settle(this.pendingRanks);
    this.batch = new Map();
    this.nextRank += this.pendingRanks.length;
    this.pendingRanks = [];
    if (this.done || this.nextRank >= this.rankToIndex.length) {
      this.sharing = true;
      const inlined = new Set<number>();
      for (let position = 0; position < this.slotOf.length; position += 1) if (this.slotOf[position] !== -1) inlined.add(this.fingerprints[position] as number);
      const share: number[] = [];
      for (let position = 0; position < this.slotOf.length; position += 1) {
        if (this.slotOf[position] === -1 && inlined.has(this.fingerprints[position] as number)) share.push(position);
      }
      return share.length > 0 ? share : (this.nextBatch() ?? null);
    }
    const seen = this.details.length;
    const size = seen === 0 ? FIRST_BATCH : Math.ceil(((this.budget - this.used) / (this.used / seen)) * 2) + 16;
    const end = Math.min(this.rankToIndex.length, this.nextRank + size);
    for (let rank = this.nextRank; rank < end; rank += 1) this.pendingRanks.push(rank);
    return this.pendingRanks.map((rank) => this.rankToIndex[rank] as number).sort((a, b) => a - b);
  }

  /** The inlined details in rank order, and each file position's slot in them (-1: not inlined). Call after nextBatch returned null. */
  finish(): { details: string[]; slotOf: Int32Array } {
    return { details: this.details, slotOf: this.slotOf };
  }
}
