// Query strings and request paths: RFC 3986 encoding, sorted keys, list values and path templates.

/** encodeURIComponent plus the characters RFC 3986 reserves that it leaves alone: ! ' ( ) *. */
export function encodeComponent(value) {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** One value as the API reads it: dates in UTC without milliseconds, booleans as true/false. */
export function formatValue(value) {
  if (value instanceof Date) return value.toISOString().replace(/\.\d{3}Z$/, "Z");
  if (typeof value === "boolean") return value ? "true" : "false";
  return String(value);
}

/**
 * `params` as a query string without the "?": keys sorted (so recorded requests match), null and undefined left
 * out, lists joined with commas as the API expects (`labels=bug,ui`), empty lists left out.
 */
export function encodeQuery(params = {}) {
  const pairs = [];
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      pairs.push(`${encodeComponent(key)}=${value.map((item) => encodeComponent(formatValue(item))).join(",")}`);
    } else {
      pairs.push(`${encodeComponent(key)}=${encodeComponent(formatValue(value))}`);
    }
  }
  return pairs.join("&");
}

/**
 * Fills the `{name}` segments of a path template from `params`, encoded.
 * @throws TypeError naming the parameter when one is missing or empty.
 */
export function expandPath(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (_, name) => {
    const value = params[name];
    if (value === undefined || value === null || value === "") {
      throw new TypeError(`path parameter "${name}" is missing for ${template}`);
    }
    return encodeComponent(formatValue(value));
  });
}

/** base + path + query: `https://api.linden.example/v3/projects/web/issues?state=open`. A trailing "/" of base is dropped. */
export function buildUrl(base, path, query) {
  const trimmed = base.endsWith("/") ? base.slice(0, -1) : base;
  const search = encodeQuery(query);
  return search === "" ? `${trimmed}${path}` : `${trimmed}${path}?${search}`;
}
