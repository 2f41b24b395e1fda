// Checks the API's JSON against the shapes the client promises, and issue drafts before they are sent.
import { InvalidRequestError, ResponseShapeError } from "./errors.js";

export const STATES = ["open", "closed"];
export const PRIORITIES = ["p0", "p1", "p2", "p3"];
export const MAX_TITLE_LENGTH = 256;
export const MAX_LABELS = 20;

const isTimestamp = (value) => typeof value === "string" && !Number.isNaN(Date.parse(value));

/** What is wrong with an issue as the API returned it, one entry per field; empty when it is well formed. */
export function issueProblems(value) {
  if (value === null || typeof value !== "object") return ["issue is not an object"];
  const problems = [];
  if (!Number.isInteger(value.number) || value.number < 1) problems.push("number must be a positive integer");
  if (typeof value.title !== "string" || value.title.length === 0) problems.push("title must be a non-empty string");
  if (!STATES.includes(value.state)) problems.push(`state must be one of ${STATES.join(", ")}`);
  if (value.priority !== null && !PRIORITIES.includes(value.priority)) problems.push(`priority must be null or one of ${PRIORITIES.join(", ")}`);
  if (!Array.isArray(value.labels) || value.labels.some((label) => typeof label !== "string")) problems.push("labels must be a list of strings");
  if (!isTimestamp(value.created_at)) problems.push("created_at must be an ISO timestamp");
  if (value.closed_at !== null && !isTimestamp(value.closed_at)) problems.push("closed_at must be null or an ISO timestamp");
  if (value.state === "closed" && value.closed_at === null) problems.push("a closed issue needs closed_at");
  return problems;
}

/**
 * An issue from the API's JSON, with camel-case fields and times in ms since the epoch:
 * `{ number, title, state, priority, labels, createdAt, closedAt }`.
 * @throws ResponseShapeError listing every problem.
 */
export function parseIssue(value) {
  const problems = issueProblems(value);
  if (problems.length > 0) throw new ResponseShapeError(`unexpected issue in response: ${problems.join("; ")}`, problems);
  return {
    number: value.number,
    title: value.title,
    state: value.state,
    priority: value.priority,
    labels: [...value.labels],
    createdAt: Date.parse(value.created_at),
    closedAt: value.closed_at === null ? null : Date.parse(value.closed_at),
  };
}

/**
 * A draft for POST /projects/{project}/issues, trimmed and with duplicate labels removed: `{ title, body, labels, priority }`.
 * @throws InvalidRequestError (status null, `fields` naming each bad field) before anything is sent.
 */
export function checkDraft(draft) {
  const fields = {};
  const title = typeof draft.title === "string" ? draft.title.trim() : "";
  if (title.length === 0) fields.title = "is required";
  else if (title.length > MAX_TITLE_LENGTH) fields.title = `is longer than ${MAX_TITLE_LENGTH} characters`;
  const labels = [...new Set(draft.labels ?? [])];
  if (labels.length > MAX_LABELS) fields.labels = `has more than ${MAX_LABELS} labels`;
  const priority = draft.priority ?? null;
  if (priority !== null && !PRIORITIES.includes(priority)) fields.priority = `must be one of ${PRIORITIES.join(", ")}`;
  if (Object.keys(fields).length > 0) {
    const names = Object.keys(fields).join(", ");
    throw new InvalidRequestError(`invalid issue draft: ${names}`, { fields });
  }
  return { title, body: draft.body ?? "", labels, priority };
}
