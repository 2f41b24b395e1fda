// Issue arithmetic for triage reports: age, SLA deadlines by priority, ordering and a summary.

/** Hours to first response by priority, from the support policy (docs/sla.md). */
export const SLA_HOURS = Object.freeze({ p0: 4, p1: 24, p2: 72, p3: 168 });

const HOUR_MS = 3600000;
const DAY_MS = 86400000;
const PRIORITY_RANK = { p0: 0, p1: 1, p2: 2, p3: 3 };

/** Whole days since the issue was opened, rounded down; 0 for an issue stamped in the future (clock skew). */
export function ageInDays(issue, now) {
  return Math.max(0, Math.floor((now - issue.createdAt) / DAY_MS));
}

/** The SLA deadline in ms since the epoch: opened + the priority's hours; null without a priority. */
export function slaDeadline(issue) {
  if (issue.priority === null) return null;
  return issue.createdAt + SLA_HOURS[issue.priority] * HOUR_MS;
}

/** Whether an open issue is past its deadline at `now`; the deadline itself is still on time. Closed issues never breach. */
export function breachesSla(issue, now) {
  if (issue.state !== "open") return false;
  const deadline = slaDeadline(issue);
  return deadline !== null && now > deadline;
}

/** Hours to the deadline, rounded up (30 minutes left is 1); negative once breached; null without a priority. */
export function hoursLeft(issue, now) {
  const deadline = slaDeadline(issue);
  return deadline === null ? null : Math.ceil((deadline - now) / HOUR_MS);
}

/** Triage order: by priority (p0 first, none last), then oldest first, then by number. */
export function compareForTriage(a, b) {
  const rankA = a.priority === null ? 4 : PRIORITY_RANK[a.priority];
  const rankB = b.priority === null ? 4 : PRIORITY_RANK[b.priority];
  if (rankA !== rankB) return rankA - rankB;
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.number - b.number;
}

/**
 * `{ open, closed, breached, oldestOpenDays, medianOpenDays }` for a list of issues at `now`: breached lists the
 * numbers of open issues past their SLA in triage order; the median of an even count is the mean of the middle two.
 * Null ages when nothing is open.
 */
export function summarize(issues, now) {
  const open = issues.filter((issue) => issue.state === "open");
  const ages = open.map((issue) => ageInDays(issue, now)).sort((a, b) => a - b);
  const middle = Math.floor(ages.length / 2);
  let median = null;
  if (ages.length > 0) median = ages.length % 2 === 1 ? ages[middle] : (ages[middle - 1] + ages[middle]) / 2;
  return {
    open: open.length,
    closed: issues.length - open.length,
    breached: open
      .filter((issue) => breachesSla(issue, now))
      .sort(compareForTriage)
      .map((issue) => issue.number),
    oldestOpenDays: ages.length > 0 ? ages[ages.length - 1] : null,
    medianOpenDays: median,
  };
}
