// Pagination and windowing: pages of a list with their metadata, sliding windows, moving averages.
import { roundTo } from "./round.js";

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

/**
 * Page `page` (1-based) of `items`, `perPage` items a page (default 25, at most 100).
 * A page past the last one is empty (its metadata still counts `total` and `pages`); an empty list has 1 page.
 * @returns `{ items, page, perPage, total, pages, from, to, hasPrevious, hasNext }` where from/to are 1-based
 * positions of the first and last item shown (0 and 0 when none).
 * @throws RangeError when page is not a whole number ≥ 1 or perPage not a whole number from 1 to 100.
 */
export function paginate(items, { page = 1, perPage = DEFAULT_PER_PAGE } = {}) {
  if (!Number.isInteger(page) || page < 1) throw new RangeError(`page must be a whole number from 1, got ${page}`);
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
    throw new RangeError(`perPage must be a whole number from 1 to ${MAX_PER_PAGE}, got ${perPage}`);
  }
  const total = items.length;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const offset = (page - 1) * perPage;
  const shown = items.slice(offset, offset + perPage);
  return {
    items: shown,
    page,
    perPage,
    total,
    pages,
    from: shown.length > 0 ? offset + 1 : 0,
    to: offset + shown.length,
    hasPrevious: page > 1,
    hasNext: page < pages,
  };
}

/**
 * Windows of `size` consecutive items, starting every `step` items (default `size`: no overlap). The last, shorter
 * window is kept only with `partial: true`.
 * @throws RangeError when size or step is not a whole number ≥ 1.
 */
export function windows(items, size, { step = size, partial = false } = {}) {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`size must be a whole number from 1, got ${size}`);
  if (!Number.isInteger(step) || step < 1) throw new RangeError(`step must be a whole number from 1, got ${step}`);
  const result = [];
  for (let start = 0; start < items.length; start += step) {
    const window = items.slice(start, start + size);
    if (window.length < size && !partial) break;
    result.push(window);
    if (start + size >= items.length) break;
  }
  return result;
}

/**
 * The trailing moving average over `size` values, rounded to `places` (default 2); the first size − 1 points are
 * null (not enough history).
 */
export function movingAverage(values, size, { places = 2 } = {}) {
  let running = 0;
  return values.map((value, index) => {
    running += value;
    if (index >= size) running -= values[index - size];
    return index + 1 < size ? null : roundTo(running / size, places);
  });
}
