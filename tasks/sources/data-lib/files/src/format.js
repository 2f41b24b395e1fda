// Human-readable numbers: byte sizes, percentages, durations and compact counts.
import { roundTo } from "./round.js";

const BINARY = ["B", "KiB", "MiB", "GiB", "TiB"];
const DECIMAL = ["B", "kB", "MB", "GB", "TB"];

/**
 * A byte count with its unit: powers of 1024 (KiB, MiB, …) by default, of 1000 (kB, MB, …) with `binary: false`;
 * one decimal place from the first unit up ("1.5 KiB"), none for plain bytes ("1023 B").
 * @throws RangeError for a negative or non-finite count.
 */
export function formatBytes(bytes, { binary = true, places = 1 } = {}) {
  if (!Number.isFinite(bytes) || bytes < 0) throw new RangeError(`bytes must be a finite number ≥ 0, got ${bytes}`);
  const base = binary ? 1024 : 1000;
  const units = binary ? BINARY : DECIMAL;
  let value = bytes;
  let unit = 0;
  while (value >= base && unit < units.length - 1) {
    value /= base;
    unit += 1;
  }
  if (unit === 0) return `${bytes} B`;
  return `${roundTo(value, places).toFixed(places)} ${units[unit]}`;
}

/** A ratio as a percentage with `places` decimals (default 1): formatPercent(0.1234) = "12.3%"; signed with `sign`. */
export function formatPercent(ratio, { places = 1, sign = false } = {}) {
  const percent = roundTo(ratio * 100, places);
  const text = `${percent.toFixed(places)}%`;
  return sign && percent > 0 ? `+${text}` : text;
}

/**
 * A duration in ms as the two largest non-zero units: "450 ms", "59 s", "1 min 05 s", "2 h 00 min", "3 d 04 h".
 * Below a second it prints ms; seconds are rounded half up.
 */
export function formatDuration(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, "0")} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, "0")} min`;
  return `${Math.floor(hours / 24)} d ${String(hours % 24).padStart(2, "0")} h`;
}

/** A count in compact form: 999 → "999", 1200 → "1.2k", 1_250_000 → "1.3M" (one decimal, trailing ".0" dropped). */
export function formatCount(count) {
  const magnitude = Math.abs(count);
  if (magnitude < 1000) return String(count);
  const [divisor, suffix] = magnitude < 1e6 ? [1e3, "k"] : magnitude < 1e9 ? [1e6, "M"] : [1e9, "B"];
  return `${roundTo(count / divisor, 1)}${suffix}`;
}
