// Pagination: page sizes within the API's bounds, cursors from the body or the Link header, and iteration over pages.
import { MAX_PAGE_SIZE } from "./config.js";
import { PaginationError } from "./errors.js";

/** A page size the API accepts: a whole number from 1 to MAX_PAGE_SIZE (100); fractions are cut. Not a number: 1. */
export function clampPageSize(size) {
  const whole = Math.trunc(size);
  if (!Number.isFinite(whole) || whole < 1) return 1;
  return whole > MAX_PAGE_SIZE ? MAX_PAGE_SIZE : whole;
}

/** The Link header (RFC 8288) as `{ rel: url }`, e.g. `<https://…?cursor=c2>; rel="next"` → `{ next: "https://…?cursor=c2" }`. */
export function parseLinkHeader(header) {
  const links = {};
  if (!header) return links;
  for (const part of header.split(",")) {
    const match = /<([^>]*)>\s*;\s*rel="?([^";]+)"?/.exec(part.trim());
    if (match) links[match[2]] = match[1];
  }
  return links;
}

/** The decoded value of query parameter `name` in `url`; "" for a bare key, null when it is absent. */
export function queryParam(url, name) {
  const start = url.indexOf("?");
  if (start === -1) return null;
  for (const pair of url.slice(start + 1).split("&")) {
    const equals = pair.indexOf("=");
    const key = equals === -1 ? pair : pair.slice(0, equals);
    if (decodeURIComponent(key) !== name) continue;
    return equals === -1 ? "" : decodeURIComponent(pair.slice(equals + 1).replace(/\+/g, " "));
  }
  return null;
}

/** The next page's cursor: the body's `next_cursor`, else the cursor of the Link header's rel="next"; null on the last page. */
export function nextCursor(response) {
  const fromBody = response.body?.next_cursor;
  if (typeof fromBody === "string" && fromBody !== "") return fromBody;
  const next = parseLinkHeader(response.headers.link).next;
  return next === undefined ? null : queryParam(next, "cursor");
}

/**
 * Every item of every page, in order. `fetchPage(cursor)` resolves to `{ items, cursor }` (cursor null on the last
 * page; the first call gets null).
 * @throws PaginationError after `maxPages` pages, or when the server returns a cursor it returned before.
 */
export async function* paginate(fetchPage, { maxPages }) {
  const seen = new Set();
  let cursor = null;
  for (let page = 1; page <= maxPages; page += 1) {
    const result = await fetchPage(cursor);
    yield* result.items;
    if (result.cursor === null) return;
    if (seen.has(result.cursor)) throw new PaginationError(`the server returned cursor "${result.cursor}" twice`);
    seen.add(result.cursor);
    cursor = result.cursor;
  }
  throw new PaginationError(`stopped after ${maxPages} pages: the server kept returning a next cursor`);
}
