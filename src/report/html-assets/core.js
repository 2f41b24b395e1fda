// Core of the page script: data unpacking, DOM helper, routing, episode details, cell labels, header.
// The page script is the files of ASSET_ORDER (runner/html-commands.ts) concatenated inside one strict IIFE: they share one scope.
  performance.mark('script-start');
  const kind = document.body.dataset.kind;
  const payload = JSON.parse(document.getElementById('report-data').textContent);
  /** Episode rows come packed by column (render-html.ts packRows). */
  function unpackRows(packed) {
    const rows = new Array(packed.length);
    const fields = Object.keys(packed.columns);
    const strings = new Set(packed.stringColumns);
    for (let i = 0; i < packed.length; i += 1) {
      const row = {};
      for (const field of fields) {
        const value = packed.columns[field][i];
        row[field] = strings.has(field) && value !== null ? packed.strings[value] : value;
      }
      rows[i] = row;
    }
    return rows;
  }
  for (const source of kind === 'compare' ? [payload.base, payload.head] : [payload]) source.episodes = unpackRows(source.episodes);
  performance.mark('data-parsed');
  const app = document.getElementById('app');

  // ---- DOM helpers -------------------------------------------------------------------------------------------
  /** h('div.cls#id', {attrs}, ...children): an element; strings become text nodes, null/false are skipped. */
  function h(spec, attrs, ...children) {
    const [tag, ...rest] = spec.split(/(?=[.#])/);
    const el = document.createElement(tag || 'div');
    for (const part of rest) {
      if (part[0] === '.') el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
    if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
      children.unshift(attrs);
      attrs = null;
    }
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
      else if (key === 'class') el.className = value;
      else el.setAttribute(key, value === true ? '' : String(value));
    }
    const add = (child) => {
      if (child === null || child === undefined || child === false) return;
      if (Array.isArray(child)) child.forEach(add);
      else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    };
    children.forEach(add);
    return el;
  }
  const pct = (x) => (x === null || x === undefined || Number.isNaN(x) ? '—' : `${(100 * x).toFixed(0)}%`);
  const pct1 = (x) => (x === null || x === undefined || Number.isNaN(x) ? '—' : `${(100 * x).toFixed(1)}%`);
  const signedPct = (x) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(100 * x).toFixed(1)}`;
  const interval = (e) => (e ? `${pct(e.estimate)} [${pct(e.lower)}, ${pct(e.upper)}]` : '—');
  const fmt = (x, digits = 1) => (Number.isInteger(x) ? String(x) : x.toFixed(digits));
  const json = (value) => JSON.stringify(value, null, 2);
  const oneLine = (value) => JSON.stringify(value);
  const clip = (text, n) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

  // ---- colours (decision 0038-report-colours) ------------------------------------------------------------------
  // Strategies: Okabe & Ito's colour-blind-safe palette (Color Universal Design, 2008), a fixed colour per built-in
  // strategy and, for any other name, a stable one (FNV-1a hash of the name) from the rest of the palette, so a strategy
  // has the same colour in every report and on the compare page. Components: Paul Tol's colour-blind-safe "light" scheme
  // (personal.sron.nl/~pault), which shares no colour with the strategies'. Charts always add legends and labels.
  const STRATEGY_COLORS = { direct: '#0072B2', react: '#E69F00', 'plan-up-front': '#009E73', 'plan-replan': '#CC79A7', gated: '#D55E00' };
  const OTHER_STRATEGY_COLORS = ['#56B4E9', '#000000', '#9C755F', '#79706E', '#F0E442'];
  const COMPONENT_COLORS = { planner: '#77AADD', executor: '#EE8866', replanner: '#44BB99', reporter: '#EEDD88', gate: '#FFAABB', agent: '#99DDFF', '(unattributed)': '#DDDDDD' };
  const OTHER_COMPONENT_COLORS = ['#BBCC33', '#AAAA00'];
  /** FNV-1a (32 bit) of a string: a stable index for names without a fixed colour. */
  function nameHash(name) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < name.length; i += 1) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193) >>> 0;
    return hash;
  }
  /** The colour of one strategy (hex): fixed for the built-in ones, else hashed into the rest of the palette. */
  const strategyColor = (strategy) => STRATEGY_COLORS[strategy] ?? OTHER_STRATEGY_COLORS[nameHash(strategy) % OTHER_STRATEGY_COLORS.length];
  /** The colour of one component (planner, executor, replanner, reporter, gate, agent = single agent, (unattributed)). */
  const componentColor = (component) => COMPONENT_COLORS[component] ?? OTHER_COMPONENT_COLORS[nameHash(component) % OTHER_COMPONENT_COLORS.length];
  /** Plot colour options for strategies: {domain, range, legend}; the same strategy gets the same colour in every report. */
  const colors = (strategies) => ({ type: 'ordinal', domain: strategies, range: strategies.map(strategyColor), legend: true });
  /** Plot colour options for components (default: every known one); no colour in common with colors(). */
  const componentColors = (components = Object.keys(COMPONENT_COLORS)) => ({ type: 'ordinal', domain: components, range: components.map(componentColor), legend: true });

  /** Width in px of a text in a chart's font (Plot's default: 10px system-ui), for margins that never clip a label. */
  const textCanvas = document.createElement('canvas').getContext('2d');
  function textWidth(text, font = '10px system-ui, sans-serif') {
    textCanvas.font = font;
    return Math.ceil(textCanvas.measureText(String(text)).width);
  }
  /**
   * Makes a rendered Plot chart (an <svg>, or Plot's <figure> of legend + svg) readable by assistive technology: the chart
   * svg becomes role="img" with `summary` as its aria-label; Plot's per-mark aria-labels move to data-mark (an aria-label
   * on an unnamed <g> is prohibited ARIA); legend swatches' svgs are hidden (their names are text beside them).
   */
  function accessibleChart(chart, summary) {
    for (const svg of chart.tagName === 'svg' ? [chart] : chart.querySelectorAll('svg')) {
      if (svg.closest('[class$="-swatches"], [class*="-swatches "]') || svg.parentElement?.tagName === 'SPAN') {
        svg.setAttribute('aria-hidden', 'true');
        continue;
      }
      svg.setAttribute('role', 'img');
      svg.setAttribute('aria-label', summary);
      for (const g of svg.querySelectorAll('[aria-label]')) {
        g.dataset.mark = g.getAttribute('aria-label');
        g.removeAttribute('aria-label');
      }
      for (const g of svg.querySelectorAll('[aria-description]')) g.removeAttribute('aria-description');
    }
    return chart;
  }

  // ---- routing ------------------------------------------------------------------------------------------------
  // #overview, #grid[?FILTERS], #search?q=TEXT, #episode/TASK/STRATEGY/EPOCH[/event/ID]; a compare page prefixes grid and
  // episode routes with base/ or head/ (#compare is its first view). FILTERS: URL query parameters of the grid —
  // strategy, group, family, fixture, outcome, mode, component, q, open (TASK|STRATEGY) — so a filtered grid is a link.
  const enc = encodeURIComponent;
  const GRID_FILTERS = ['strategy', 'group', 'family', 'fixture', 'outcome', 'mode', 'component', 'q', 'open'];
  const episodeHash = (side, row, eventId) =>
    `#${side ? `${side}/` : ''}episode/${enc(row.task)}/${enc(row.strategy)}/${row.epoch}${eventId === undefined ? '' : `/event/${eventId}`}`;
  /** The link to the grid with these filters (unknown keys and empty values dropped); side: 'base' | 'head' | null. */
  function gridHref(side, filters) {
    const query = new URLSearchParams();
    for (const key of GRID_FILTERS) if (filters && filters[key]) query.set(key, filters[key]);
    const text = query.toString();
    return `#${side ? `${side}/` : ''}grid${text ? `?${text}` : ''}`;
  }
  /** The route the URL's hash names: { view, side, params (URLSearchParams of the part after '?'), … }. */
  function parseHash() {
    const raw = location.hash.replace(/^#/, '');
    const at = raw.indexOf('?');
    const params = new URLSearchParams(at >= 0 ? raw.slice(at + 1) : '');
    const parts = (at >= 0 ? raw.slice(0, at) : raw).split('/').map(decodeURIComponent);
    let side = null;
    if (parts[0] === 'base' || parts[0] === 'head') side = parts.shift();
    if (parts[0] === 'episode' && parts.length >= 4) {
      return { view: 'episode', side, params, task: parts[1], strategy: parts[2], epoch: Number(parts[3]), event: parts[4] === 'event' ? Number(parts[5]) : null };
    }
    return { view: parts[0] || (kind === 'compare' ? 'compare' : 'overview'), side, params, rest: parts.slice(1) };
  }

  // ---- stability of a task × strategy cell --------------------------------------------------------------------
  function cellLabel(rows) {
    const scored = rows.filter((r) => r.status !== 'error');
    const passes = scored.filter((r) => r.success).length;
    if (scored.length === 0) return 'error';
    if (passes === scored.length) return 'stable-pass';
    if (passes === 0) return 'stable-fail';
    return 'flaky';
  }

  // ---- header and navigation ----------------------------------------------------------------------------------
  function header(source, tabs) {
    const run = source.run;
    const facts = [
      run.suite && `suite ${run.suite}`,
      `${new Set(source.episodes.map((e) => e.task)).size} tasks × ${source.strategies.length} strategies × ${run.epochs ?? '?'} epoch(s)`,
      `${source.episodes.length} episodes`,
      run.config_hash && `config ${run.config_hash}`,
      run.started_at && `started ${run.started_at}`,
    ].filter(Boolean);
    const models = Object.entries(run.models).map(([role, model]) => `${role}=${model}`).join(' ');
    return h('header', [
      h('h1', payload.title),
      h('p.facts', facts.join(' · ')),
      models && h('p.facts', `models: ${models}`),
      ...run.notes.map((note) => h('p.note', note)),
      h(
        'nav',
        { 'aria-label': 'views' },
        tabs.map(([hash, label]) => {
          const active = location.hash.startsWith(hash) || (!location.hash && hash === tabs[0][0]);
          return h('a', { href: hash, class: active ? 'active' : null, 'aria-current': active ? 'page' : null }, label);
        }),
      ),
    ]);
  }

