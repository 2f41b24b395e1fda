import { describe, it, expect } from "vitest";
import { PaginationError } from "../src/errors.js";
import { clampPageSize, nextCursor, paginate, parseLinkHeader, queryParam } from "../src/pagination.js";

const base = "https://api.linden.example/v3/projects/web/issues";

async function collect(iterator) {
  const items = [];
  try {
    for await (const item of iterator) items.push(item);
  } catch (error) {
    return { items, error };
  }
  return { items, error: null };
}

function pages(...list) {
  const asked = [];
  const fetchPage = async (cursor) => {
    asked.push(cursor);
    return list[asked.length - 1];
  };
  return { asked, fetchPage };
}

describe("pagination", () => {
  it("keeps page sizes between 1 and 100, cutting fractions", () => {
    expect([25, 1, 0, -3, 2.7, 100, 101, 250, Number.NaN, Infinity].map(clampPageSize)).toEqual([25, 1, 1, 1, 2, 100, 100, 100, 1, 1]);
  });

  it("reads every relation of a Link header", () => {
    const header = `<${base}?cursor=c3&per_page=2>; rel="next", <${base}?per_page=2>; rel=first`;
    expect(parseLinkHeader(header)).toEqual({ next: `${base}?cursor=c3&per_page=2`, first: `${base}?per_page=2` });
    expect(parseLinkHeader(undefined)).toEqual({});
    expect(parseLinkHeader("garbage")).toEqual({});
  });

  it("decodes one query parameter", () => {
    expect(queryParam(`${base}?cursor=c%3D2&per_page=25`, "cursor")).toBe("c=2");
    expect(queryParam(`${base}?cursor=c2&per_page=25`, "per_page")).toBe("25");
    expect(queryParam(`${base}?q=login+fails&flag`, "q")).toBe("login fails");
    expect(queryParam(`${base}?q=login+fails&flag`, "flag")).toBe("");
    expect(queryParam(`${base}?cursor=c2`, "page")).toBe(null);
    expect(queryParam(base, "cursor")).toBe(null);
  });

  it("takes the next cursor from the body first, then from the Link header", () => {
    const link = `<${base}?cursor=c9>; rel="next"`;
    expect(nextCursor({ body: { next_cursor: "c2" }, headers: { link } })).toBe("c2");
    expect(nextCursor({ body: { next_cursor: "" }, headers: { link } })).toBe("c9");
    expect(nextCursor({ body: null, headers: { link } })).toBe("c9");
    expect(nextCursor({ body: { next_cursor: null }, headers: {} })).toBe(null);
  });

  it("walks every page in order, up to and including maxPages", async () => {
    const { asked, fetchPage } = pages({ items: [1, 2], cursor: "c2" }, { items: [3, 4], cursor: "c3" }, { items: [5], cursor: null });
    expect(await collect(paginate(fetchPage, { maxPages: 3 }))).toEqual({ items: [1, 2, 3, 4, 5], error: null });
    expect(asked).toEqual([null, "c2", "c3"]);
  });

  it("stops a server that keeps handing out cursors", async () => {
    const { fetchPage } = pages({ items: [1], cursor: "c2" }, { items: [2], cursor: "c3" }, { items: [3], cursor: null });
    const { items, error } = await collect(paginate(fetchPage, { maxPages: 2 }));
    expect(items).toEqual([1, 2]);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toBe("stopped after 2 pages: the server kept returning a next cursor");
  });

  it("stops when a cursor comes back", async () => {
    const { fetchPage } = pages({ items: [1], cursor: "c2" }, { items: [2], cursor: "c2" });
    const { items, error } = await collect(paginate(fetchPage, { maxPages: 10 }));
    expect(items).toEqual([1, 2]);
    expect(error.message).toBe('the server returned cursor "c2" twice');
  });
});
