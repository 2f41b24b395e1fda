// The package's public entry point: @linden/tracker-client.
export { createClient } from "./client.js";
export { DEFAULTS, DEFAULT_BASE_URL, MAX_PAGE_SIZE } from "./config.js";
export * from "./errors.js";
export { formatRateLimit, formatWait } from "./format.js";
export { ageInDays, breachesSla, compareForTriage, hoursLeft, slaDeadline, summarize } from "./issues.js";
export { createFetchTransport } from "./transport.js";
