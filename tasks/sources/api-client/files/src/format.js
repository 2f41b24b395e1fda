// Human-readable waits and rate-limit status for log lines and the CLI's --verbose output.
import { percentUsed } from "./rate-limit.js";

/** A wait in ms as text: "0 s", "45 s", "2 min 05 s", "1 h 03 min" (seconds rounded up, never shown past an hour). */
export function formatWait(ms) {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** One line for a rate-limit window: "4990/5000 left (0% used), resets in 12 min 30 s". */
export function formatRateLimit(window) {
  return `${window.remaining}/${window.limit} left (${percentUsed(window)}% used), resets in ${formatWait(window.resetInMs)}`;
}
