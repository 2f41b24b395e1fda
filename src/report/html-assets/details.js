// Episode details: where each episode's trace is (inlined, compressed) and decoding it on demand.
  // ---- episode details: base64 → gzip → JSON, decoded on first use ----------------------------------------------
  // The details element follows this script: it is read once the parser has reached it (DOMContentLoaded).
  const decoded = new Map();
  let allDetails = null;
  function detailsOf(side) {
    if (!allDetails) {
      allDetails = new Promise((resolve) => {
        const read = () => resolve(JSON.parse(document.getElementById('report-details').textContent));
        if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', read, { once: true });
        else read();
      });
    }
    return allDetails.then((details) => (kind === 'compare' ? details[side] : details));
  }
  function loadDetail(side, index) {
    const key = `${side}|${index}`;
    if (!decoded.has(key)) {
      decoded.set(
        key,
        detailsOf(side).then((details) => {
          const binary = atob(details[index]);
          const bytes = new Uint8Array(binary.length);
          for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
          const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
          return new Response(stream).text().then((text) => JSON.parse(text));
        }),
      );
    }
    return decoded.get(key);
  }


  /**
   * An episode's detail ({ outcome, checks, findings, models, trace, texts }), or null when this page cannot reach it
   * (then traceUnavailable says why and how to see it). `row.detail` indexes the inlined details.
   */
  async function episodeDetail(side, row) {
    if (row.detail === null) return null;
    return loadDetail(side, row.detail);
  }

  /** What the page says in place of a trace it cannot reach. */
  function traceUnavailable(side, row) {
    return h('p.problem#not-inlined', `This episode’s trace is not inlined (the report keeps the failed episodes and a sample of the rest). \`stratbench explain DIR ${row.task} ${row.strategy} --epoch ${row.epoch}\` prints it.`);
  }
