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
  const colors = (strategies) => ({ domain: strategies, scheme: 'observable10', legend: true });

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
      h('nav', tabs.map(([hash, label]) => h('a', { href: hash, class: location.hash.startsWith(hash) ? 'active' : null }, label))),
    ]);
  }

