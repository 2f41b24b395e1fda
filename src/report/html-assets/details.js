// Episode details: where each episode's trace is (inlined and compressed, or served by `view --serve`), decoding or
// fetching it on demand, and what the page says about the traces it holds.
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


  // ---- traces not in the file: fetched from `stratbench view DIR --serve` ------------------------------------------
  /** Whether `stratbench view DIR --serve` serves this page: then a trace not in the file is fetched from the results folder. */
  const servedPage = document.body.dataset.served === 'true' && kind !== 'compare';
  const fetchedDetails = new Map();
  /** Why the server could not give a trace ("side|task|strategy|epoch" → message), for traceUnavailable. */
  const fetchProblems = new Map();
  const fetchKey = (side, row) => `${side ?? ''}|${row.task}|${row.strategy}|${row.epoch}`;
  const coverageCount = (n) => n.toLocaleString('en-US');
  const sourceOfSide = (side) => (kind === 'compare' ? payload[side === 'base' ? 'base' : 'head'] : payload);

  /** GET /episode?task&strategy&epoch of the serving origin (runner/html-serve.ts): the detail, or an Error with the server's reason. */
  async function fetchDetail(row) {
    const query = new URLSearchParams({ task: row.task, strategy: row.strategy, epoch: String(row.epoch) });
    let response;
    try {
      response = await fetch(`episode?${query}`, { cache: 'no-store' });
    } catch {
      throw new Error(`the server at ${location.host} did not answer (stopped?); start \`stratbench view DIR --serve\` again`);
    }
    const body = await response.json().catch(() => null);
    if (!response.ok) throw new Error(body && body.error ? body.error : `the server answered ${response.status}`);
    return body;
  }

  /**
   * An episode's detail ({ outcome, checks, findings, models, trace, texts }): decoded from the file when it is inlined
   * (`row.detail` indexes the inlined details), else fetched from the server when `view --serve` serves the page; null
   * when this page cannot reach it (then traceUnavailable says why and how to see it).
   */
  async function episodeDetail(side, row) {
    if (row.detail !== null) return loadDetail(side, row.detail);
    if (!servedPage) return null;
    const key = fetchKey(side, row);
    if (!fetchedDetails.has(key)) {
      fetchedDetails.set(
        key,
        fetchDetail(row).catch((error) => {
          fetchProblems.set(key, error.message);
          fetchedDetails.delete(key);
          return null;
        }),
      );
    }
    return fetchedDetails.get(key);
  }

  /** How many of a source's episodes have their trace in the file, and which: { total, inFile, failures, failuresIn, cells, cellsWithSample }. */
  const coverages = new WeakMap();
  function traceCoverage(source) {
    if (!coverages.has(source)) coverages.set(source, countCoverage(source));
    return coverages.get(source);
  }
  function countCoverage(source) {
    const rows = source.episodes;
    let failures = 0;
    let failuresIn = 0;
    const cells = new Set();
    const cellsWithSample = new Set();
    for (const row of rows) {
      if (!row.success) {
        failures += 1;
        if (row.detail !== null) failuresIn += 1;
      } else {
        cells.add(`${row.task}|${row.strategy}`);
        if (row.detail !== null) cellsWithSample.add(`${row.task}|${row.strategy}`);
      }
    }
    const inFile = rows.length - source.omitted;
    return { total: rows.length, inFile, failures, failuresIn, cells: cells.size, cellsWithSample: cellsWithSample.size };
  }

  /** Which traces are in the file, in words: "every failure, one success per cell" or how far the size budget reached. */
  function coverageWhich(source, c) {
    const sample = source.success_sample_per_cell ?? 1;
    const successes =
      c.cellsWithSample === c.cells
        ? `${sample === 1 ? 'one success' : `${sample} successes`} per cell`
        : `a success in ${coverageCount(c.cellsWithSample)} of ${coverageCount(c.cells)} cells`;
    return c.failuresIn === c.failures
      ? `every failure, ${successes}`
      : `failures first, as many as the file's size budget holds: ${coverageCount(c.failuresIn)} of ${coverageCount(c.failures)} failures`;
  }

  /**
   * The line the header shows about traces (views/header): all in the file; or how many are and which, and that the
   * rest open when served; or, served, that every trace is available.
   */
  function traceCoverageNote(source) {
    const c = traceCoverage(source);
    let text;
    if (c.inFile === c.total) text = [`All ${coverageCount(c.total)} traces are in this file.`];
    else if (servedPage && source === payload)
      text = [`Every trace is available: ${coverageCount(c.inFile)} of ${coverageCount(c.total)} are in this file, the other ${coverageCount(c.total - c.inFile)} are read from the results folder by this server when opened.`];
    else
      text = [
        `${coverageCount(c.inFile)} of ${coverageCount(c.total)} traces are in this file (${coverageWhich(source, c)}); the other ${coverageCount(c.total - c.inFile)} open when served (`,
        h('code', 'stratbench view DIR --serve'),
        ').',
      ];
    return h('p.facts#trace-coverage', text);
  }

  /** What the page says in place of a trace it cannot reach: why, and the two ways to read it. */
  function traceUnavailable(side, row) {
    const problem = fetchProblems.get(fetchKey(side, row));
    const explain = h('code', `stratbench explain DIR ${row.task} ${row.strategy} --epoch ${row.epoch}`);
    if (problem) return h('p.problem#not-inlined', `This trace is not in this file, and the server could not read it: ${problem}. `, explain, ' prints it.');
    const source = sourceOfSide(side);
    const c = traceCoverage(source);
    return h(
      'p.problem#not-inlined',
      `This trace is not in this file (${coverageCount(c.inFile)} of ${coverageCount(c.total)} traces are: ${coverageWhich(source, c)}); open this report with `,
      h('code', 'stratbench view DIR --serve'),
      ' to read every trace, or ',
      explain,
      '.',
    );
  }
