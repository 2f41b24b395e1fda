// The recorded fake server: replays interactions from tests/recordings/*.json and keeps every request it was sent.
// An interaction is { request: { method, url, body? }, response: { status, headers, body } }, or { request, error }
// for a dropped connection, or { request, hang: true } for a server that never answers.

/**
 * A transport for createClient. Each request takes the first unused interaction with the same method and URL; a
 * recorded body must match the JSON sent. No match: the request fails with "no recorded response for …".
 */
export function createRecordedTransport(interactions) {
  const unused = [...interactions];
  const calls = [];
  return {
    calls,
    get unused() {
      return unused.length;
    },
    send(request) {
      calls.push(request);
      const index = unused.findIndex((entry) => entry.request.method === request.method && entry.request.url === request.url);
      if (index === -1) return Promise.reject(new Error(`no recorded response for ${request.method} ${request.url}`));
      const [entry] = unused.splice(index, 1);
      if (entry.request.body !== undefined && JSON.stringify(entry.request.body) !== request.body) {
        return Promise.reject(new Error(`recorded body differs for ${request.method} ${request.url}: sent ${request.body}`));
      }
      if (entry.hang) return new Promise(() => {});
      if (entry.error) return Promise.reject(new Error(entry.error));
      return Promise.resolve(structuredClone(entry.response));
    },
  };
}
