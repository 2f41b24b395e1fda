// stratbench HTML report: overview charts (Observable Plot), task × strategy grid, trace viewer; compare view.
// Plain browser JavaScript, inlined into the page with its data; it loads nothing from anywhere.
(() => {
  'use strict';
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
  // #overview, #grid, #episode/TASK/STRATEGY/EPOCH[/event/ID]; a compare page prefixes episodes with base/ or head/.
  const enc = encodeURIComponent;
  const episodeHash = (side, row, eventId) =>
    `#${side ? `${side}/` : ''}episode/${enc(row.task)}/${enc(row.strategy)}/${row.epoch}${eventId === undefined ? '' : `/event/${eventId}`}`;
  function parseHash() {
    const parts = location.hash.replace(/^#/, '').split('/').map(decodeURIComponent);
    let side = null;
    if (parts[0] === 'base' || parts[0] === 'head') side = parts.shift();
    if (parts[0] === 'episode' && parts.length >= 4) {
      return { view: 'episode', side, task: parts[1], strategy: parts[2], epoch: Number(parts[3]), event: parts[4] === 'event' ? Number(parts[5]) : null };
    }
    return { view: parts[0] || (kind === 'compare' ? 'compare' : 'overview'), side };
  }

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

  // ---- overview -----------------------------------------------------------------------------------------------
  function plotFigure(title, caption, make) {
    const figure = h('figure.chart', h('figcaption', h('strong', title), caption ? ` — ${caption}` : ''));
    try {
      figure.append(make());
    } catch (error) {
      figure.append(h('p.problem', `chart failed: ${error.message}`));
      console.error(error);
    }
    return figure;
  }

  function overview(source) {
    const stats = source.summary.statistics;
    const strategies = source.strategies;
    const groups = [...source.groups, 'overall'];
    const rateRows = [...stats.groups, ...stats.strategies.map((s) => ({ ...s, group: 'overall' }))]
      .filter((s) => s.successRate)
      .map((s) => ({ strategy: s.strategy, group: s.group, ...s.successRate, successes: s.successes, scored: s.scored }));
    const bySummary = new Map(source.summary.strategies.map((s) => [s.strategy, s]));
    const statsByStrategy = new Map(stats.strategies.map((s) => [s.strategy, s]));
    const cost = strategies
      .filter((s) => bySummary.get(s) && bySummary.get(s).scored > 0 && statsByStrategy.get(s)?.successRate)
      .map((s) => {
        const sum = bySummary.get(s);
        const rate = statsByStrategy.get(s).successRate;
        return {
          strategy: s,
          success: rate.estimate,
          lower: rate.lower,
          upper: rate.upper,
          model_calls: sum.model_calls / sum.scored,
          tokens: (sum.tokens_in + sum.tokens_out) / sum.scored,
          model_s: sum.model_ms / sum.scored / 1000,
        };
      });
    const passK = stats.strategies.flatMap((s) => s.passK.map((p) => ({ strategy: s.strategy, k: p.k, ...p.passHatK })));
    const failed = source.episodes.filter((e) => !e.success && e.status !== 'error');
    const attributed = failed.map((e) => ({
      strategy: e.strategy,
      component: e.attribution ? e.attribution.split('.')[0] : '(unattributed)',
      mode: e.attribution ?? '(unattributed)',
    }));
    const replanStrategies = strategies.filter((s) => source.episodes.some((e) => e.strategy === s && e.replans > 0));
    const replanRows = source.episodes.filter((e) => replanStrategies.includes(e.strategy) && e.status !== 'error');
    const total = (key) => cost.reduce((sum, c) => sum + c[key], 0);

    const successChart = () =>
      Plot.plot({
        width: Math.max(640, groups.length * strategies.length * 26),
        height: 280,
        marginBottom: 40,
        fx: { domain: groups, label: null },
        x: { domain: strategies, axis: null, paddingInner: 0.15 },
        y: { domain: [0, 100], percent: true, label: 'success (pass^1, %)', grid: true },
        color: colors(strategies),
        marks: [
          Plot.barY(rateRows, { fx: 'group', x: 'strategy', y: 'estimate', fill: 'strategy', title: (d) => `${d.strategy} · ${d.group}: ${d.successes}/${d.scored} = ${interval(d)}` }),
          Plot.ruleX(rateRows, { fx: 'group', x: 'strategy', y1: 'lower', y2: 'upper', stroke: 'currentColor', strokeWidth: 1.5 }),
          Plot.ruleY([0]),
        ],
      });
    const costChart = (key, label) => () =>
      Plot.plot({
        width: 300,
        height: 240,
        x: { label, zero: true, grid: true },
        y: { domain: [0, 100], percent: true, label: 'success (%)' },
        color: { domain: strategies, scheme: 'observable10' },
        marks: [
          Plot.ruleX(cost, { x: key, y1: 'lower', y2: 'upper', stroke: 'strategy', strokeOpacity: 0.6 }),
          Plot.dot(cost, { x: key, y: 'success', fill: 'strategy', r: 5, title: (d) => `${d.strategy}: ${fmt(d[key], 2)} ${label}, success ${interval({ estimate: d.success, lower: d.lower, upper: d.upper })}` }),
          Plot.text(cost, { x: key, y: 'success', text: 'strategy', dx: 8, textAnchor: 'start', fontSize: 10 }),
        ],
      });
    const passKChart = () =>
      Plot.plot({
        width: 420,
        height: 260,
        x: { label: 'k (epochs that must all pass)', ticks: Math.max(...passK.map((p) => p.k), 1), tickFormat: 'd' },
        y: { domain: [0, 100], percent: true, label: 'pass^k (%)', grid: true },
        color: colors(strategies),
        marks: [
          Plot.areaY(passK, { x: 'k', y1: 'lower', y2: 'upper', fill: 'strategy', fillOpacity: 0.12 }),
          Plot.lineY(passK, { x: 'k', y: 'estimate', stroke: 'strategy' }),
          Plot.dot(passK, { x: 'k', y: 'estimate', fill: 'strategy', title: (d) => `${d.strategy} pass^${d.k} = ${interval(d)}` }),
        ],
      });
    const replanChart = () =>
      Plot.plot({
        width: 420,
        height: 240,
        x: { label: 'replans in the episode', tickFormat: 'd' },
        y: { label: 'episodes', grid: true },
        marginRight: 110,
        fy: { label: null },
        color: { domain: strategies, scheme: 'observable10' },
        marks: [Plot.barY(replanRows, Plot.groupX({ y: 'count' }, { x: 'replans', fill: 'strategy', fy: 'strategy' })), Plot.ruleY([0])],
      });
    const componentChart = () =>
      Plot.plot({
        width: 520,
        height: 40 + 28 * strategies.length,
        marginLeft: 130,
        x: { label: 'failed episodes', grid: true },
        y: { domain: strategies, label: null },
        color: { legend: true, scheme: 'tableau10' },
        marks: [Plot.barX(attributed, Plot.groupY({ x: 'count' }, { y: 'strategy', fill: 'component', title: 'component' })), Plot.ruleX([0])],
      });
    const modeCount = new Set(attributed.map((a) => a.mode)).size;
    const modeChart = () =>
      Plot.plot({
        width: 620,
        height: 40 + 24 * modeCount,
        marginLeft: 230,
        x: { label: 'failed episodes', grid: true },
        y: { label: null },
        color: { domain: strategies, scheme: 'observable10', legend: true },
        marks: [Plot.barX(attributed, Plot.groupY({ x: 'count' }, { y: 'mode', fill: 'strategy', sort: { y: '-x' }, title: 'strategy' })), Plot.ruleX([0])],
      });

    const best = [...cost].sort((a, b) => b.success - a.success)[0];
    return h('main', [
      h('section.summary', [
        h('h2', 'Success per strategy'),
        h(
          'table.numbers#success-table',
          h('thead', h('tr', h('th', 'strategy'), ...source.groups.map((g) => h('th', g)), h('th', 'overall (95% interval)'), h('th', 'errors'))),
          h(
            'tbody',
            source.summary.strategies.map((s) =>
              h(
                'tr',
                { 'data-strategy': s.strategy },
                h('th', s.strategy),
                ...source.groups.map((g) => h('td', s.by_group[g] ? `${s.by_group[g].successes}/${s.by_group[g].scored}` : '—')),
                h('td.overall', `${s.successes}/${s.scored} · ${interval(statsByStrategy.get(s.strategy)?.successRate)}`),
                h('td', String(s.errors)),
              ),
            ),
          ),
        ),
        best && h('p', `Highest overall success: `, h('strong', best.strategy), ` (${interval({ estimate: best.success, lower: best.lower, upper: best.upper })}). Intervals: ${stats.strategies[0]?.successRate?.method ?? ''}, ${Math.round(100 * stats.confidence)}%.`),
      ]),
      h('section.charts', [
        plotFigure('Success per strategy × group', 'bars: pass^1; lines: 95% interval', successChart),
        h('div.row', [
          plotFigure('Cost: model calls', 'mean per episode', costChart('model_calls', 'model calls / episode')),
          plotFigure('Cost: tokens', total('tokens') === 0 ? 'none recorded (scripted model)' : 'mean per episode', costChart('tokens', 'tokens / episode')),
          plotFigure('Cost: model time', total('model_s') === 0 ? 'none recorded (scripted model)' : 'mean per episode', costChart('model_s', 'model s / episode')),
        ]),
        h('div.row', [
          plotFigure('pass^k over k', 'every one of k epochs passes; bands: 95% interval', passKChart),
          replanStrategies.length > 0 ? plotFigure('Replans per episode', null, replanChart) : h('figure.chart', h('figcaption', h('strong', 'Replans per episode'), ' — no episode replanned')),
        ]),
        attributed.length > 0
          ? h('div.row', [plotFigure('Failures by component', 'attributed failed episodes', componentChart), plotFigure('Failures by mode', 'component.mode', modeChart)])
          : h('p', 'No failed episodes.'),
      ]),
      comparisonTable(stats.comparisons),
    ]);
  }

  function comparisonTable(comparisons) {
    return h('section', [
      h('h2', 'Paired comparisons'),
      h('p.hint', 'second − first on shared tasks; p adjusted by Holm across pairs; MDE: smallest difference detectable with 80% power at α = 0.05.'),
      h(
        'table.numbers#comparisons',
        h('thead', h('tr', ['first', 'second', 'tasks', 'first', 'second', 'difference [95% interval]', 'p', 'p (Holm)', 'MDE', 'method'].map((c) => h('th', c)))),
        h(
          'tbody',
          comparisons.map((c) => {
            const significant = c.adjustedPValue < 0.05;
            return h(
              'tr',
              { class: significant ? 'significant' : null },
              h('td', c.first),
              h('td', c.second),
              h('td', String(c.tasks)),
              h('td', pct(c.firstRate)),
              h('td', pct(c.secondRate)),
              h('td', `${signedPct(c.difference.estimate)} [${signedPct(c.difference.lower)}, ${signedPct(c.difference.upper)}] pp`),
              h('td', c.test.pValue.toPrecision(2)),
              h('td', c.adjustedPValue.toPrecision(2)),
              h('td', c.minimumDetectableEffect === null ? '—' : `${(100 * c.minimumDetectableEffect).toFixed(0)} pp`),
              h('td', c.test.method),
            );
          }),
        ),
      ),
    ]);
  }

  // ---- grid ---------------------------------------------------------------------------------------------------
  const gridState = { group: '', family: '', fixture: '', outcome: '', mode: '', open: null };

  function grid(source, side) {
    const strategies = source.strategies;
    const cells = new Map();
    for (const row of source.episodes) {
      const key = `${row.task}|${row.strategy}`;
      if (!cells.has(key)) cells.set(key, []);
      cells.get(key).push(row);
    }
    const tasks = [];
    const seen = new Set();
    for (const row of source.episodes) {
      if (!seen.has(row.task)) {
        seen.add(row.task);
        tasks.push({ task: row.task, group: row.group, family: row.family ?? null, fixture: row.fixture ?? null });
      }
    }
    const families = [...new Set(tasks.map((t) => t.family).filter(Boolean))].sort();
    const fixtures = [...new Set(tasks.map((t) => t.fixture).filter(Boolean))].sort();
    // Within a group, tasks sit under one sub-heading per fixture × family (hand-written tasks: the fixture alone).
    const subgroupOf = (t) => [t.fixture ? `fixture ${t.fixture}` : null, t.family ? `family ${t.family}` : null].filter(Boolean).join(' · ');
    const bySubgroup = (a, b) => (a.fixture ?? '').localeCompare(b.fixture ?? '') || (a.family ?? '').localeCompare(b.family ?? '');
    const modes = [...new Set(source.episodes.map((e) => e.attribution).filter(Boolean))].sort();
    const select = (name, label, options) =>
      h('label', `${label} `, h('select', {
        name,
        onchange: (event) => {
          gridState[name] = event.target.value;
          render();
        },
      }, h('option', { value: '' }, 'all'), options.map((o) => h('option', { value: o, selected: gridState[name] === o }, o))));
    const matches = (rows) => {
      const label = cellLabel(rows);
      if (gridState.outcome && gridState.outcome !== label && !(gridState.outcome === 'any-failure' && label !== 'stable-pass')) return false;
      if (gridState.mode && !rows.some((r) => r.attribution === gridState.mode)) return false;
      return true;
    };
    const body = [];
    let shownTasks = 0;
    for (const group of source.groups.filter((g) => !gridState.group || g === gridState.group)) {
      const groupTasks = tasks.filter(
        (t) => t.group === group && (!gridState.family || t.family === gridState.family) && (!gridState.fixture || t.fixture === gridState.fixture),
      );
      const visible = groupTasks
        .filter((t) => strategies.some((s) => cells.has(`${t.task}|${s}`) && matches(cells.get(`${t.task}|${s}`))))
        .sort(bySubgroup);
      if (visible.length === 0) continue;
      body.push(h('tr.group-row', h('th', { colspan: strategies.length + 1 }, group)));
      let subgroup = null;
      for (const t of visible) {
        shownTasks += 1;
        if (subgroupOf(t) && subgroupOf(t) !== subgroup) {
          subgroup = subgroupOf(t);
          body.push(h('tr.subgroup-row', { 'data-fixture': t.fixture ?? '', 'data-family': t.family ?? '' }, h('th', { colspan: strategies.length + 1 }, subgroup)));
        }
        body.push(
          h(
            'tr',
            { 'data-task': t.task },
            h('th.task', t.task, t.family ? h('span.family', ` ${t.family}`) : null),
            strategies.map((s) => {
              const rows = cells.get(`${t.task}|${s}`);
              if (!rows) return h('td.cell.empty', '');
              const label = cellLabel(rows);
              const scored = rows.filter((r) => r.status !== 'error');
              const errors = rows.length - scored.length;
              const open = gridState.open === `${t.task}|${s}`;
              return h(
                'td',
                {
                  class: `cell ${label}${matches(rows) ? '' : ' dim'}${open ? ' open' : ''}`,
                  'data-strategy': s,
                  'data-label': label,
                  title: `${t.task} × ${s}: ${label}`,
                  tabindex: 0,
                  onclick: () => {
                    gridState.open = open ? null : `${t.task}|${s}`;
                    render();
                  },
                },
                `${scored.filter((r) => r.success).length}/${scored.length}`,
                errors ? h('span.err', ` +${errors} err`) : null,
              );
            }),
          ),
        );
      }
    }
    const openRows = gridState.open ? cells.get(gridState.open) : null;
    return h('main', [
      h('section.filters', [
        select('group', 'group', source.groups),
        families.length > 0 ? select('family', 'family', families) : null,
        fixtures.length > 0 ? select('fixture', 'fixture', fixtures) : null,
        select('outcome', 'outcome', ['stable-pass', 'flaky', 'stable-fail', 'any-failure', 'error']),
        select('mode', 'attribution', modes),
        h('span.hint#grid-count', `${shownTasks} task(s) shown`),
      ]),
      h('div.legend', [['stable-pass', 'every epoch passed'], ['flaky', 'some epochs passed'], ['stable-fail', 'no epoch passed'], ['error', 'errors only']].map(([c, t]) => h(`span.cell.${c}`, `${c}: ${t}`))),
      h(
        'div.grid-and-panel',
        h('table.grid#grid', h('thead', h('tr', h('th', 'task'), strategies.map((s) => h('th', s)))), h('tbody', body)),
        openRows ? episodeList(openRows, side) : null,
      ),
    ]);
  }

  function episodeList(rows, side) {
    const first = rows[0];
    return h('aside.episodes#episode-list', [
      h('h3', `${first.task} × ${first.strategy}`),
      h(
        'ul',
        rows.map((r) =>
          h(
            'li',
            { class: r.success ? 'pass' : r.status === 'error' ? 'error' : 'fail' },
            h('a', { href: episodeHash(side, r) }, `epoch ${r.epoch}`),
            ` ${r.success ? 'pass' : r.status === 'error' ? 'error' : 'fail'} · ${r.status} (${r.reason})`,
            r.attribution ? h('div.attribution-line', h('code', r.attribution), ` ${clip(r.explanation ?? '', 200)}`) : null,
            !r.success && r.failing ? h('div.hint', clip(r.failing, 200)) : null,
          ),
        ),
      ),
    ]);
  }

  // ---- trace viewer -------------------------------------------------------------------------------------------
  function checkLine(check) {
    const rest = Object.entries(check).filter(([k]) => k !== 'check').map(([k, v]) => `${k}=${oneLine(v)}`);
    return `${check.check}${rest.length ? ` ${rest.join(' ')}` : ''}`;
  }

  function planView(event, previous, diff, finalStatus, link) {
    const plan = event.plan;
    const removed = new Set(diff ? diff.removed : []);
    const added = new Set(diff ? diff.added : []);
    const revised = new Set(diff ? diff.revised : []);
    const stepRow = (step, cls) => {
      const status = finalStatus.get(step.id) ?? step.status;
      const mark = cls === 'removed' ? 'removed' : added.has(step.id) ? 'added' : revised.has(step.id) ? 'revised' : null;
      const text = [h('code', step.id), ` ${step.tool} `, h('code.args', step.args === null ? '(args from earlier results)' : oneLine(step.args)), step.depends_on.length ? ` ← ${step.depends_on.join(', ')}` : '', ` — ${step.does}`];
      return h('li', { class: `step ${mark ?? ''}`, 'data-step': step.id, 'data-mark': mark }, mark === 'removed' ? h('del', text) : text, mark && mark !== 'removed' ? h(`span.mark.${mark}`, mark) : null, h(`span.status.${status}`, status));
    };
    const steps = plan.steps.map((s) => stepRow(s));
    if (previous) for (const s of previous.plan.steps.filter((s) => removed.has(s.id))) steps.push(stepRow(s, 'removed'));
    return h('div.plan', [
      h('p', h('strong', event.type === 'plan' ? 'Plan' : `Revision ${event.revision}`), event.call !== undefined ? [' by ', link(event.call, `call #${event.call}`)] : null),
      event.invalidated ? h('p', 'invalidated: ', h('q', event.invalidated)) : null,
      event.answers !== undefined ? h('p', 'answers ', link(event.answers, `event #${event.answers}`)) : null,
      diff ? h('p.diff-summary', `diff: ${diff.added.length} added, ${diff.removed.length} removed, ${diff.revised.length} revised`) : null,
      h('p', 'goal: ', plan.goal),
      h('p', 'done_when: ', plan.done_when.length ? plan.done_when.map(checkLine).join(' · ') : '(none)'),
      plan.assumptions.length ? h('p', 'assumptions: ', plan.assumptions.map((a) => `“${a}”`).join(' · ')) : null,
      h('ol.steps', steps),
    ]);
  }

  function messagesView(event, texts, source) {
    if (!event.sent) {
      return h('p.hint', 'No messages stored for this call (the scripted stand-in reads the role’s view and is sent none; real models’ messages are kept in messages.jsonl).');
    }
    const options = Object.entries(event.sent.options).map(([k, v]) => `${k} ${v}`).join(', ');
    return h('details.messages', [
      h('summary', `messages the ${event.role} saw (${event.sent.messages.length})${options ? ` · ${options}` : ''}`),
      event.sent.messages.map((hash) => {
        const stored = texts[hash];
        if (!stored) return h('p.hint', `[${hash}: not in this report${source.messages_stored ? '' : ' (the results folder has no messages.jsonl)'}]`);
        return h('details.message', h('summary', h('span.role', stored.role), ` ${clip(stored.content.split('\n')[0], 120)}`), h('pre', stored.content));
      }),
    ]);
  }

  function eventBody(event, context) {
    const { link, texts, source, trace, finalStatus } = context;
    switch (event.type) {
      case 'model_call':
        return [
          h('p.event-head', h('strong', `model call · ${event.role}`), ` · ${event.model} · attempt ${event.attempt} · `, h(`span.${event.outcome === 'ok' ? 'ok' : 'bad'}`, event.outcome), ` · ${event.tokens_in}+${event.tokens_out} tokens · ${event.duration_ms} ms${event.cached ? ' · cached' : ''}${event.cold_load ? ` · cold load ${event.load_ms} ms` : ''}`),
          event.error ? h('p.bad', event.error) : null,
          event.output_fault ? h('p.bad', `output fault ${event.output_fault.kind}: ${event.output_fault.detail}`) : null,
          event.format_warnings?.length ? h('p.hint', `format warnings: ${event.format_warnings.join('; ')}`) : null,
          messagesView(event, texts, source),
          event.thinking ? h('details.thinking', h('summary', 'thinking'), h('pre', texts[event.thinking]?.content ?? `[${event.thinking}: not stored]`)) : null,
          h('details.reply', { open: true }, h('summary', 'raw reply'), h('pre', event.text)),
        ];
      case 'tool_call':
        return [
          h('p.event-head', h('strong', `tool call · ${event.tool}`), event.step_id ? ` · step ${event.step_id}` : '', ` · `, h(`span.${event.status === 'success' ? 'ok' : 'bad'}`, event.status), event.exit_code !== undefined ? ` · exit ${event.exit_code}` : '', event.error_code ? ` · ${event.error_code}` : '', ` · ${event.duration_ms} ms`, event.side_effect !== 'none' ? ` · side effect ${event.side_effect}` : '', event.call !== undefined ? [' · chosen by ', link(event.call, `call #${event.call}`)] : '', event.plan !== undefined ? [' · plan ', link(event.plan, `#${event.plan}`)] : ''),
          h('pre.args', json(event.args)),
          h('details.output', { open: event.output.split('\n').length <= 25 }, h('summary', `output (${event.output.split('\n').length} lines)`), h('pre', event.output)),
        ];
      case 'plan':
      case 'plan_revision': {
        const previous = [...trace].reverse().find((e) => e.id < event.id && (e.type === 'plan' || e.type === 'plan_revision'));
        const diffEvent = trace.find((e) => e.type === 'plan_diff' && e.revision === event.revision && e.id > event.id);
        return [planView(event, previous, event.type === 'plan' ? null : diffEvent?.diff ?? null, finalStatus, link)];
      }
      case 'plan_diff':
        return [h('p.event-head', h('strong', `plan diff · revision ${event.revision}`), ` · added ${event.diff.added.join(', ') || '—'} · removed ${event.diff.removed.join(', ') || '—'} · revised ${event.diff.revised.join(', ') || '—'}`)];
      case 'plan_invalid':
        return [h('p.event-head', h('strong', 'plan invalid')), h('ul', event.errors.map((e) => h('li', e)))];
      case 'step_end':
        return [h('p.event-head', h('strong', `step ${event.step_id}`), ' ', h(`span.status.${event.status}`, event.status), event.reason ? ` · ${event.reason}` : '')];
      case 'check':
        return [h('p.event-head', h('strong', `check (${event.scope})`), ' ', h(`span.${event.pass ? 'ok' : 'bad'}`, event.pass ? 'pass' : 'fail'), ` · ${checkLine(event.check)}`), h('p', event.detail)];
      case 'gate':
        return [h('p.event-head', h('strong', 'gate'), ` → ${event.route}`)];
      case 'budget':
        return [h('p.event-head', h('strong', `budget · ${event.limit}`), ` · ${event.detail}`)];
      case 'end':
        return [h('p.event-head', h('strong', 'end'), ` · ${event.status} (${event.reason})`), event.answer ? h('p', 'answer: ', h('q', event.answer)) : null, event.message ? h('p', 'message: ', h('q', event.message)) : null];
      default:
        return [h('pre', json(event))];
    }
  }

  function findSource(side) {
    return kind === 'compare' ? payload[side === 'base' ? 'base' : 'head'] : payload;
  }

  async function episodeView(route) {
    const source = findSource(route.side);
    const side = route.side;
    const row = source.episodes.find((r) => r.task === route.task && r.strategy === route.strategy && r.epoch === route.epoch);
    if (!row) return h('main', h('p.problem', `No episode ${route.task} × ${route.strategy} epoch ${route.epoch} in this report.`));
    const siblings = source.episodes.filter((r) => r.task === row.task && r.strategy === row.strategy);
    const evidence = new Set(row.evidence);
    const headerPart = [
      h('h2#episode-title', `${row.task} × ${row.strategy} · epoch ${row.epoch}`),
      h('p', `group ${row.group} · expect ${row.expect} · `, h(`span.${row.success ? 'ok' : 'bad'}#episode-result`, row.success ? 'success' : row.status === 'error' ? 'error' : 'failure'), ` · ${row.status} (${row.reason}) · ${row.model_calls} model calls · ${row.tool_calls} tool calls · ${row.replans} replans`),
      siblings.length > 1 ? h('p.epochs', 'epochs: ', siblings.map((r) => h('a', { href: episodeHash(side, r), class: `${r.success ? 'ok' : 'bad'}${r.epoch === row.epoch ? ' current' : ''}` }, String(r.epoch)))) : null,
      row.attribution
        ? h('div.attribution#attribution', h('p', h('strong', 'Attributed to '), h('code', row.attribution)), h('p', row.explanation), h('p', 'evidence: ', row.evidence.map((id, i) => [i ? ', ' : '', h('a', { href: episodeHash(side, row, id) }, `event #${id}${i === 0 ? ' (first error)' : ''}`)])))
        : null,
      row.counterfactual
        ? h('div.counterfactual', h('strong', 'Counterfactual: '), row.counterfactual.counterfactual ? `replacing the ${row.counterfactual.counterfactual} by the reference fixes it` : 'no single role’s replacement fixes it', ` (${Object.entries(row.counterfactual.replaced).map(([r, ok]) => `${r} ${ok ? '✓' : '✗'}`).join(', ')})`, row.counterfactual.agrees === null ? '' : row.counterfactual.agrees ? ' — agrees with the rules' : ' — disagrees with the rules')
        : null,
    ];
    if (row.detail === null) {
      return h('main.episode', [
        ...headerPart,
        h('p.problem#not-inlined', `This episode’s trace is not inlined (the report keeps the failed episodes and a sample of the rest). \`stratbench explain DIR ${row.task} ${row.strategy} --epoch ${row.epoch}\` prints it.`),
      ]);
    }
    const detail = await loadDetail(side, row.detail);
    const finalStatus = new Map();
    for (const e of detail.trace) if (e.type === 'step_end') finalStatus.set(e.step_id, e.status);
    const link = (id, label) => h('a', { href: episodeHash(side, row, id) }, label);
    const context = { link, texts: detail.texts, source, trace: detail.trace, finalStatus };
    const events = detail.trace.map((event) =>
      h(
        'section',
        { class: `event ${event.type}${evidence.has(event.id) ? ' attributed' : ''}${event.id === row.evidence[0] ? ' first-error' : ''}`, id: `event-${event.id}`, 'data-event': event.id },
        h('a.permalink', { href: episodeHash(side, row, event.id), title: 'permalink to this event' }, `#${event.id}`),
        h('span.time', `${event.t_ms} ms`),
        evidence.has(event.id) ? h('p.attributed-note', `${event.id === row.evidence[0] ? 'first erroneous event' : 'evidence'} for ${row.attribution}: ${row.explanation}`) : null,
        eventBody(event, context),
      ),
    );
    return h('main.episode', [
      ...headerPart,
      detail.outcome.answer ? h('p', 'answer: ', h('q', detail.outcome.answer)) : null,
      detail.outcome.message ? h('p', 'message: ', h('q', detail.outcome.message)) : null,
      h('h3', 'Checks at scoring'),
      h('ul.checks#checks', detail.checks.map((c) => h('li', { class: c.pass ? 'ok' : 'bad' }, h('strong', c.pass ? 'pass ' : 'fail '), h('code', checkLine(c.check)), ` — ${c.detail}`))),
      detail.findings?.length ? h('div.findings', h('h3', 'Findings (costs on a successful episode)'), h('ul', detail.findings.map((f) => h('li', h('code', `${f.component}.${f.mode}`), ` ${f.explanation} (cost: ${f.cost.replans} replans, ${f.cost.model_calls} model calls)`)))) : null,
      h('h3', `Trace (${detail.trace.length} events)`),
      h('div.trace#trace', events),
    ]);
  }

  // ---- compare view -------------------------------------------------------------------------------------------
  function compareView() {
    const c = payload.comparison;
    const deltaRow = (label, d) =>
      h('tr', { 'data-strategy': d.strategy, class: d.verdict === 'regressed' ? 'regressed' : null }, h('th', label), h('td', d.base), h('td', d.head), h('td', { class: d.significant ? 'significant' : null }, d.delta), h('td', d.interval), h('td', d.p ?? '—'));
    const flip = (f) =>
      h('tr', { class: f.direction }, h('td', f.task), h('td', f.strategy), h('td', f.base_label), h('td', f.head_label), h('td', h('a', { href: episodeHash('base', { task: f.task, strategy: f.strategy, epoch: f.base_epoch }) }, 'base trace')), h('td', h('a', { href: episodeHash('head', { task: f.task, strategy: f.strategy, epoch: f.head_epoch }) }, 'head trace')));
    return h('main', [
      h('section', [
        h('h2#verdict', `Verdict: ${c.verdict}`),
        c.reasons.length ? h('ul', c.reasons.map((r) => h('li', r))) : null,
        c.warnings.length ? h('ul', c.warnings.map((w) => h('li.hint', w))) : null,
        h('p.hint', 'Δ = head − base in percentage points on the tasks both runs scored, with its 95% interval; p is Holm-adjusted across strategies (groups: unadjusted).'),
        h('h2', 'Per strategy'),
        h('table.numbers#compare-strategies', h('thead', h('tr', ['strategy', 'base', 'head', 'Δ (pp)', '95% interval', 'p'].map((x) => h('th', x)))), h('tbody', c.strategies.map((d) => deltaRow(d.strategy, d)))),
        h('h2', 'Per strategy × group'),
        h('table.numbers#compare-groups', h('thead', h('tr', ['strategy · group', 'base', 'head', 'Δ (pp)', '95% interval', 'p'].map((x) => h('th', x)))), h('tbody', c.groups.map((d) => deltaRow(`${d.strategy} · ${d.group}`, d)))),
      ]),
      h('section', [
        h('h2', `Flipped tasks (${c.flips.length})`),
        c.flips.length ? h('table#flips', h('thead', h('tr', ['task', 'strategy', 'base', 'head', '', ''].map((x) => h('th', x)))), h('tbody', c.flips.map(flip))) : h('p', 'No task changed label.'),
      ]),
      h('section', [
        h('h2', 'Configuration differences'),
        c.configuration.length ? h('table#config-diff', h('thead', h('tr', ['field', 'base', 'head'].map((x) => h('th', x)))), h('tbody', c.configuration.map((d) => h('tr', h('td', h('code', d.field)), h('td', h('code', d.base)), h('td', h('code', d.head)))))) : h('p', 'Same configuration.'),
      ]),
    ]);
  }

  // ---- render -------------------------------------------------------------------------------------------------
  let renderCount = 0;
  async function render() {
    const ticket = ++renderCount;
    const route = parseHash();
    const tabs =
      kind === 'compare'
        ? [['#compare', 'Compare'], ['#base/grid', 'Base grid'], ['#head/grid', 'Head grid']]
        : [['#overview', 'Overview'], ['#grid', 'Grid']];
    const source = kind === 'compare' ? findSource(route.side ?? 'head') : payload;
    let main;
    try {
      if (route.view === 'episode') main = await episodeView(route);
      else if (route.view === 'grid') main = grid(source, route.side);
      else if (kind === 'compare') main = compareView();
      else main = overview(source);
    } catch (error) {
      console.error(error);
      main = h('main', h('p.problem', `cannot show this view: ${error.message}`));
    }
    performance.mark('view-built');
    if (ticket !== renderCount) return;
    app.replaceChildren(header(kind === 'compare' ? payload.head : payload, tabs), main);
    if (kind === 'compare') app.querySelector('header h1').textContent = payload.title;
    if (route.view === 'episode' && route.event !== null) {
      const target = document.getElementById(`event-${route.event}`);
      if (target) {
        target.classList.add('targeted');
        target.scrollIntoView({ block: 'center' });
      }
    } else if (route.view === 'episode') window.scrollTo(0, 0);
    performance.mark('ready');
    document.body.dataset.ready = 'true';
  }
  window.addEventListener('hashchange', render);
  render();
})();
