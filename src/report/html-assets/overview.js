// Overview: success numbers, the headline (a best strategy only when its lead is significant), charts (Observable Plot)
// that link to the grid, and the paired comparisons table.
  // ---- overview: figures -----------------------------------------------------------------------------------------
  /** The widest a chart is drawn (px): fits the 800 px window (24 px page padding each side) without scrolling. */
  const CHART_MAX_WIDTH = 740;
  /** p as the comparisons table prints it (2 significant digits). */
  const pText = (p) => (p === null || p === undefined ? '—' : p.toPrecision(2));
  const listText = (items) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);
  const marginFor = (labels, extra = 12) => Math.max(0, ...labels.map((label) => textWidth(label))) + extra;
  /** `text`, shortened with "…" to at most `px` wide in the chart font (the full text stays in the summary and links). */
  function fitText(text, px) {
    if (textWidth(text) <= px) return text;
    let n = text.length;
    while (n > 1 && textWidth(`${text.slice(0, n)}…`) > px) n -= 1;
    return `${text.slice(0, n)}…`;
  }

  /**
   * A <figure> with the chart `make()` draws, labelled for assistive technology with `summary`, and, when `links` are
   * given ({label, filters} of gridHref), a folded "show in grid" list — the keyboard's way to what a click on a mark does.
   */
  function chartFigure({ id, title, caption, summary, make, links }) {
    const figure = h(`figure.chart#${id}`, h('figcaption', h('strong', title), caption ? ` — ${caption}` : ''));
    try {
      figure.append(accessibleChart(make(), summary));
    } catch (error) {
      figure.append(h('p.problem', `chart failed: ${error.message}`));
      console.error(error);
    }
    if (links && links.length > 0) {
      figure.append(
        h(
          'details.chart-links',
          h('summary', `Show in grid (${links.length})`),
          h('ul', links.map((link) => h('li', h('a', { href: gridHref(null, link.filters) }, link.label)))),
        ),
      );
    }
    return figure;
  }
  /** Clicking a rendered mark (Plot's elements carry their datum's index) opens the grid filtered by filtersOf(datum). */
  function linkMarks(chart, mark, data, filtersOf) {
    for (const element of chart.querySelectorAll(`:is([aria-label="${mark}"], [data-mark="${mark}"]) :is(rect, circle, path, line)`)) {
      const datum = data[element.__data__];
      if (!datum) continue;
      element.style.cursor = 'pointer';
      element.addEventListener('click', () => {
        location.hash = gridHref(null, filtersOf(datum));
      });
    }
    return chart;
  }
  /**
   * Where to put each point's label (px, its baseline's middle): right of the point, moved down (or up at the bottom
   * edge) in 11 px steps while it would cover another label or another point. Returns one y per point, in input order.
   */
  function placeLabels(points, { top, bottom }) {
    const boxes = [];
    const covers = (x, y, w) =>
      boxes.some((b) => Math.abs(b.y - y) < 11 && x < b.x + b.w && b.x < x + w) ||
      points.some((p) => Math.abs(p.y - y) < 9 && p.x + 6 > x && p.x - 6 < x + w);
    const order = points.map((p, i) => i).sort((a, b) => points[a].y - points[b].y || points[a].x - points[b].x);
    const ys = new Array(points.length);
    for (const i of order) {
      const x = points[i].x + 8;
      const w = textWidth(points[i].text);
      const candidates = [0, 11, -11, 22, -22, 33, -33, 44, -44, 55, -55].map((d) => points[i].y + d).filter((y) => y >= top && y <= bottom);
      const y = candidates.find((c) => !covers(x, c, w)) ?? points[i].y;
      boxes.push({ x, y, w });
      ys[i] = y;
    }
    return ys;
  }
  /** A chart without marks to draw, said in words (a caption, not an empty frame). */
  const emptyFigure = (id, title, text) => h(`figure.chart.empty#${id}`, h('figcaption', h('strong', title), ` — ${text}`));

  // ---- overview: the headline ------------------------------------------------------------------------------------
  /**
   * One sentence on who is best: the strategy with the highest overall success is named the best only when it beats
   * every other strategy in the run's paired comparisons (Holm-adjusted p < 1 − confidence, the p the comparisons
   * table shows); otherwise the strategies it cannot be told apart from tie with it, each with its p.
   */
  function headline(stats, strategies) {
    const alpha = 1 - stats.confidence;
    const rated = stats.strategies.filter((s) => s.successRate && strategies.includes(s.strategy));
    if (rated.length === 0) return h('p#headline', 'No episode was scored.');
    const ranked = [...rated].sort((a, b) => b.successRate.estimate - a.successRate.estimate);
    const best = ranked[0];
    const intervals = `Intervals: ${best.successRate.method}, ${Math.round(100 * stats.confidence)}%.`;
    if (ranked.length === 1) return h('p#headline', 'Overall success of ', h('strong', best.strategy), `: ${interval(best.successRate)}. ${intervals}`);
    const versus = (other) => stats.comparisons.find((c) => (c.first === best.strategy && c.second === other.strategy) || (c.second === best.strategy && c.first === other.strategy));
    const rest = ranked.slice(1).map((s) => {
      const c = versus(s);
      const ahead = c && (c.first === best.strategy ? c.difference.estimate < 0 : c.difference.estimate > 0);
      return { strategy: s.strategy, rate: s.successRate.estimate, p: c ? c.adjustedPValue : null, lower: Boolean(c && ahead && c.adjustedPValue < alpha) };
    });
    const lower = rest.filter((r) => r.lower);
    const tied = rest.filter((r) => !r.lower);
    const lowerText = lower.length === 0 ? '' : `${listText(lower.map((r) => r.strategy))} ${lower.length === 1 ? 'is' : 'are'} lower (${lower.map((r) => `${lower.length > 1 ? `${r.strategy} ` : ''}${pct(r.rate)}, p = ${pText(r.p)}`).join('; ')})`;
    const rule = h('span.hint', ` p: Holm-adjusted across pairs, as in Paired comparisons; significant below ${Number(alpha.toPrecision(2))}. ${intervals}`);
    if (tied.length === 0) {
      const beaten = lower.map((r) => `${r.strategy} ${pct(r.rate)} (p = ${pText(r.p)})`).join(', ');
      return h('p#headline', [h('strong', best.strategy), ` has the highest overall success (${interval(best.successRate)}) and beats every other strategy: ${beaten}.`, rule]);
    }
    const pOf = (r) => (r.p === null ? 'not compared' : `p = ${pText(r.p)}`);
    const tieText =
      tied.length === 1
        ? `(${pct(best.successRate.estimate)} vs ${pct(tied[0].rate)}, ${pOf(tied[0])}, Holm-adjusted)`
        : `(${best.strategy} ${pct(best.successRate.estimate)}; ${tied.map((r) => `${r.strategy} ${pct(r.rate)}, ${pOf(r)}`).join('; ')}; Holm-adjusted p against ${best.strategy})`;
    return h('p#headline', [
      h('strong', listText([best.strategy, ...tied.map((r) => r.strategy)])),
      ` tie for the highest overall success ${tieText}`,
      lowerText ? `; ${lowerText}.` : '.',
      ` No best strategy is named: ${best.strategy}'s lead is not significant.`,
      rule,
    ]);
  }

  // ---- overview: charts ------------------------------------------------------------------------------------------
  /** Success per strategy × group (pass^1 bars with 95% intervals); a bar opens the grid of its strategy × group. */
  function successChart(rateRows, groups, strategies) {
    const width = Math.min(CHART_MAX_WIDTH, Math.max(480, 60 + groups.length * (strategies.length * 20 + 16)));
    const chart = Plot.plot({
      width,
      height: 280,
      marginBottom: 40,
      fx: { domain: groups, label: null, tickFormat: (g) => fitText(g, (width - 60) / groups.length - 6) },
      x: { domain: strategies, axis: null, paddingInner: 0.15 },
      y: { domain: [0, 100], percent: true, label: 'success (pass^1, %)', grid: true },
      color: colors(strategies),
      marks: [
        Plot.barY(rateRows, { fx: 'group', x: 'strategy', y: 'estimate', fill: 'strategy', title: (d) => `${d.strategy} · ${d.group}: ${d.successes}/${d.scored} = ${interval(d)}` }),
        Plot.ruleX(rateRows, { fx: 'group', x: 'strategy', y1: 'lower', y2: 'upper', stroke: 'currentColor', strokeWidth: 1.5 }),
        Plot.ruleY([0]),
      ],
    });
    return linkMarks(chart, 'bar', rateRows, (d) => ({ strategy: d.strategy, group: d.group === 'overall' ? null : d.group }));
  }

  /** Forest plot of every paired comparison: second − first with its interval, a zero line, ±MDE as a band, significance in words. */
  function forestChart(pairs) {
    const note = (d) => (d.significant ? `significant, p = ${pText(d.p)}` : `p = ${pText(d.p)}`);
    const reach = Math.min(1, 1.08 * Math.max(0.05, ...pairs.flatMap((d) => [Math.abs(d.lower), Math.abs(d.upper), d.mde ?? 0])));
    const marginRight = marginFor(pairs.map((d) => note(d)).concat(['significant, p = 0.00000']), 16);
    return Plot.plot({
      width: CHART_MAX_WIDTH,
      height: 56 + 24 * pairs.length,
      marginLeft: marginFor(pairs.map((d) => d.label)),
      marginRight,
      x: { domain: [-100 * reach, 100 * reach], percent: true, label: 'difference in success (pp), second − first', grid: true },
      y: { domain: pairs.map((d) => d.label), label: null },
      marks: [
        Plot.barX(
          pairs.filter((d) => d.mde !== null),
          { x1: (d) => -d.mde, x2: (d) => d.mde, y: 'label', fill: '#e4e4e4', insetTop: 4, insetBottom: 4 },
        ),
        Plot.ruleX([0], { stroke: '#444' }),
        Plot.ruleY(pairs, { y: 'label', x1: 'lower', x2: 'upper', stroke: 'currentColor', strokeWidth: 1.5 }),
        Plot.dot(
          pairs.filter((d) => !d.significant),
          { y: 'label', x: 'estimate', r: 4, fill: 'white', stroke: 'currentColor', strokeWidth: 1.5 },
        ),
        Plot.dot(
          pairs.filter((d) => d.significant),
          { y: 'label', x: 'estimate', r: 4.5, symbol: 'diamond', fill: 'currentColor' },
        ),
        Plot.text(pairs, { y: 'label', text: note, frameAnchor: 'right', textAnchor: 'start', dx: 10, fill: (d) => (d.significant ? '#000' : '#555') }),
      ],
    });
  }

  /** Success against one cost (mean per episode); labels beside the dots, moved apart where they would overlap. */
  function costChart(cost, strategies, key, label) {
    const width = 360;
    const height = 240;
    const margin = { top: 24, bottom: 36, left: 40, right: marginFor(cost.map((c) => c.strategy), 14) };
    const xMax = Math.max(...cost.map((c) => c[key])) * 1.08 || 1;
    const inner = { width: width - margin.left - margin.right, height: height - margin.top - margin.bottom };
    const xPx = (c) => margin.left + (c[key] / xMax) * inner.width;
    const yPx = (c) => margin.top + (1 - c.success) * inner.height;
    const at = placeLabels(cost.map((c) => ({ x: xPx(c), y: yPx(c), text: c.strategy })), { top: margin.top, bottom: height - margin.bottom });
    const labels = cost.map((c, i) => ({ ...c, labelSuccess: 1 - (at[i] - margin.top) / inner.height }));
    const chart = Plot.plot({
      width,
      height,
      marginTop: margin.top,
      marginBottom: margin.bottom,
      marginLeft: margin.left,
      marginRight: margin.right,
      x: { domain: [0, xMax], label, grid: true },
      y: { domain: [0, 100], percent: true, label: 'success (%)', grid: true },
      color: { ...colors(strategies), legend: false },
      marks: [
        Plot.ruleX(cost, { x: key, y1: 'lower', y2: 'upper', stroke: 'strategy', strokeOpacity: 0.7 }),
        Plot.dot(cost, { x: key, y: 'success', fill: 'strategy', r: 5, title: (d) => `${d.strategy}: ${fmt(d[key], 2)} ${label}, success ${interval({ estimate: d.success, lower: d.lower, upper: d.upper })}` }),
        Plot.text(labels, { x: key, y: 'labelSuccess', text: 'strategy', dx: 8, textAnchor: 'start', fill: '#222' }),
      ],
    });
    return linkMarks(chart, 'dot', cost, (d) => ({ strategy: d.strategy }));
  }

  /** pass^k over k with integer ticks (at most ~10); with one epoch only k = 1 exists: a dot per strategy with its interval. */
  function passKChart(passK, strategies) {
    const maxK = Math.max(1, ...passK.map((p) => p.k));
    if (maxK === 1) {
      const chart = Plot.plot({
        width: Math.min(CHART_MAX_WIDTH, 120 + 80 * strategies.length),
        height: 240,
        x: { domain: strategies, label: null, padding: 0.4 },
        y: { domain: [0, 100], percent: true, label: 'pass^1 (%)', grid: true },
        color: { ...colors(strategies), legend: false },
        marks: [
          Plot.ruleX(passK, { x: 'strategy', y1: 'lower', y2: 'upper', stroke: 'strategy', strokeWidth: 2 }),
          Plot.dot(passK, { x: 'strategy', y: 'estimate', fill: 'strategy', r: 5, title: (d) => `${d.strategy} pass^1 = ${interval(d)}` }),
        ],
      });
      return linkMarks(chart, 'dot', passK, (d) => ({ strategy: d.strategy }));
    }
    const ticks = d3.ticks(1, maxK, Math.min(maxK, 10)).filter(Number.isInteger);
    // Lines that end at the same value share one label ("react, gated"), so no strategy hides behind another.
    const ends = d3.groups(
      passK.filter((p) => p.k === maxK),
      (p) => Math.round(1000 * p.estimate),
    ).map(([, same]) => ({ estimate: same[0].estimate, text: same.map((p) => p.strategy).join(', ') }));
    const height = 260;
    const margin = { top: 24, bottom: 36 };
    const yPx = (estimate) => margin.top + (1 - estimate) * (height - margin.top - margin.bottom);
    const at = placeLabels(
      ends.map((e) => ({ x: 0, y: yPx(e.estimate), text: e.text })),
      { top: margin.top, bottom: height - margin.bottom },
    );
    const endLabels = ends.map((e, i) => ({ ...e, labelY: 1 - (at[i] - margin.top) / (height - margin.top - margin.bottom) }));
    const marginRight = marginFor(ends.map((e) => e.text), 14);
    const chart = Plot.plot({
      width: Math.min(CHART_MAX_WIDTH, 360 + marginRight),
      height,
      marginTop: margin.top,
      marginBottom: margin.bottom,
      marginRight,
      x: { domain: [1, maxK], ticks, tickFormat: d3.format(',d'), label: 'k (epochs that must all pass)' },
      y: { domain: [0, 100], percent: true, label: 'pass^k (%)', grid: true },
      color: colors(strategies),
      marks: [
        Plot.areaY(passK, { x: 'k', y1: 'lower', y2: 'upper', fill: 'strategy', fillOpacity: 0.12 }),
        Plot.lineY(passK, { x: 'k', y: 'estimate', stroke: 'strategy', strokeWidth: 1.5 }),
        maxK <= 20 ? Plot.dot(passK, { x: 'k', y: 'estimate', fill: 'strategy', r: 3, title: (d) => `${d.strategy} pass^${d.k} = ${interval(d)}` }) : null,
        Plot.text(endLabels, { x: maxK, y: 'labelY', text: 'text', dx: 8, textAnchor: 'start', fill: '#222' }),
      ],
    });
    return linkMarks(chart, 'dot', passK, (d) => ({ strategy: d.strategy }));
  }

  /** Episodes by number of replans, one row per replanning strategy; margins from the longest tick and strategy label. */
  function replanChart(rows, replanStrategies, strategies) {
    const maxReplans = Math.max(...rows.map((r) => r.replans));
    const maxCount = Math.max(...rows.map((r) => r.count));
    const step = Math.ceil((maxReplans + 1) / 10);
    const chart = Plot.plot({
      width: 420,
      height: 50 + 90 * replanStrategies.length,
      marginLeft: marginFor([maxCount.toLocaleString('en-US'), 'episodes'], 14),
      marginRight: marginFor(replanStrategies, 12),
      x: { type: 'band', domain: d3.range(0, maxReplans + 1), ticks: d3.range(0, maxReplans + 1, step), label: 'replans in the episode' },
      y: { label: 'episodes', grid: true, ticks: 4 },
      fy: { domain: replanStrategies, label: null },
      color: { ...colors(strategies), legend: false },
      marks: [Plot.barY(rows, { x: 'replans', y: 'count', fy: 'strategy', fill: 'strategy', title: (d) => `${d.strategy}: ${d.count.toLocaleString('en-US')} episodes with ${d.replans} replans` }), Plot.ruleY([0])],
    });
    return linkMarks(chart, 'bar', rows, (d) => ({ strategy: d.strategy }));
  }

  /** Failed episodes stacked by `stack` (component or strategy) along one bar per `along` value. */
  function failureChart(rows, { along, domain, stack, color }) {
    const marginLeft = Math.min(320, marginFor(domain));
    const chart = Plot.plot({
      width: Math.min(CHART_MAX_WIDTH, marginLeft + 420),
      height: 50 + 26 * domain.length,
      marginLeft,
      marginRight: 20,
      x: { label: 'failed episodes', grid: true },
      y: { domain, label: null, tickFormat: (label) => fitText(label, marginLeft - 12) },
      color,
      marks: [Plot.barX(rows, { x: 'count', y: along, fill: stack, title: (d) => `${d.strategy} · ${d[along === 'strategy' ? stack : along]}: ${d.count} failed episodes` }), Plot.ruleX([0])],
    });
    return linkMarks(chart, 'bar', rows, (d) => (along === 'mode' ? { strategy: d.strategy, mode: d.mode } : { strategy: d.strategy, component: d.component }));
  }

  // ---- overview: the page ----------------------------------------------------------------------------------------
  /** Counts of `rows` by the values of `keys` (e.g. strategy × component): [{...key values, count}], in first-seen order. */
  function countBy(rows, keys) {
    const counts = new Map();
    for (const row of rows) {
      const id = keys.map((k) => row[k]).join('\u0000');
      const entry = counts.get(id) ?? { ...Object.fromEntries(keys.map((k) => [k, row[k]])), count: 0 };
      entry.count += 1;
      counts.set(id, entry);
    }
    return [...counts.values()];
  }

  function overview(source) {
    const stats = source.summary.statistics;
    const strategies = source.strategies;
    const groups = [...source.groups, 'overall'];
    const alpha = 1 - stats.confidence;
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
    const epochs = Math.max(1, ...passK.map((p) => p.k));
    const pairs = stats.comparisons.map((c) => ({
      label: `${c.second} − ${c.first}`,
      first: c.first,
      second: c.second,
      ...c.difference,
      mde: c.minimumDetectableEffect,
      p: c.adjustedPValue,
      significant: c.adjustedPValue < alpha,
    }));
    const failed = source.episodes.filter((e) => !e.success && e.status !== 'error');
    const attributed = failed.map((e) => ({
      strategy: e.strategy,
      component: e.attribution ? e.attribution.split('.')[0] : '(unattributed)',
      mode: e.attribution ?? '(unattributed)',
    }));
    const byComponent = countBy(attributed, ['strategy', 'component']);
    const components = [...new Set(byComponent.map((r) => r.component))].sort((a, b) => {
      const order = Object.keys(COMPONENT_COLORS);
      const rank = (c) => (order.includes(c) ? order.indexOf(c) : order.length);
      return rank(a) - rank(b) || a.localeCompare(b);
    });
    const byMode = countBy(attributed, ['strategy', 'mode']);
    const modeTotals = countBy(attributed, ['mode']).sort((a, b) => b.count - a.count || a.mode.localeCompare(b.mode));
    const replanStrategies = strategies.filter((s) => source.episodes.some((e) => e.strategy === s && e.replans > 0));
    const replanRows = countBy(
      source.episodes.filter((e) => replanStrategies.includes(e.strategy) && e.status !== 'error'),
      ['strategy', 'replans'],
    ).sort((a, b) => a.replans - b.replans);
    const strategyLinks = (describe) => cost.map((c) => ({ label: `${c.strategy}: ${describe(c)}`, filters: { strategy: c.strategy } }));
    const costFigure = (key, title, label, unit) =>
      cost.every((c) => c[key] === 0)
        ? emptyFigure(`cost-${key}`, title, 'none recorded (the scripted model has no tokens or model time)')
        : chartFigure({
            id: `cost-${key}`,
            title,
            caption: 'mean per episode',
            summary: `Success against ${label}: ${cost.map((c) => `${c.strategy} ${fmt(c[key], 2)} ${unit}, ${pct(c.success)}`).join('; ')}.`,
            make: () => costChart(cost, strategies, key, label),
            links: strategyLinks((c) => `${fmt(c[key], 2)} ${unit}, success ${pct(c.success)}`),
          });

    return h('main', [
      h('section.summary', [
        h('h2', 'Success per strategy'),
        h(
          'div.scroll',
          { tabindex: 0, role: 'region', 'aria-label': 'success per strategy and group' },
          h(
            'table.numbers#success-table',
            h('thead', h('tr', h('th', 'strategy'), ...source.groups.map((g) => h('th', g)), h('th', 'overall (95% interval)'), h('th', 'errors'))),
            h(
              'tbody',
              source.summary.strategies.map((s) =>
                h(
                  'tr',
                  { 'data-strategy': s.strategy },
                  h('th', h('span.swatch', { style: `background:${strategyColor(s.strategy)}`, 'aria-hidden': 'true' }), s.strategy),
                  ...source.groups.map((g) => h('td', s.by_group[g] ? `${s.by_group[g].successes}/${s.by_group[g].scored}` : '—')),
                  h('td.overall', `${s.successes}/${s.scored} · ${interval(statsByStrategy.get(s.strategy)?.successRate)}`),
                  h('td', String(s.errors)),
                ),
              ),
            ),
          ),
        ),
        headline(stats, strategies),
      ]),
      h('section.charts', [
        chartFigure({
          id: 'success-chart',
          title: 'Success per strategy × group',
          caption: 'bars: pass^1; lines: 95% interval; click a bar for its episodes',
          summary: `Bar chart of success per strategy and group: ${rateRows.map((r) => `${r.strategy} ${r.group} ${pct(r.estimate)}`).join(', ')}.`,
          make: () => successChart(rateRows, groups, strategies),
          links: rateRows.map((r) => ({ label: `${r.strategy} · ${r.group}: ${r.successes}/${r.scored} (${pct(r.estimate)})`, filters: { strategy: r.strategy, group: r.group === 'overall' ? null : r.group } })),
        }),
        pairs.length > 0
          ? chartFigure({
              id: 'forest-plot',
              title: 'Differences between strategies',
              caption: `each pair's difference with its 95% interval; grey band: ±MDE; filled diamond and "significant": Holm-adjusted p < ${Number(alpha.toPrecision(2))}`,
              summary: `Forest plot of ${pairs.length} paired differences: ${pairs.map((d) => `${d.label} ${signedPct(d.estimate)} pp [${signedPct(d.lower)}, ${signedPct(d.upper)}], p = ${pText(d.p)}${d.significant ? ', significant' : ''}`).join('; ')}.`,
              make: () => forestChart(pairs),
            })
          : null,
        cost.length > 0
          ? h('div.row', [
              costFigure('model_calls', 'Cost: model calls', 'model calls / episode', 'model calls'),
              ...(cost.every((c) => c.tokens === 0 && c.model_s === 0)
                ? [emptyFigure('cost-tokens', 'Cost: tokens and model time', 'none recorded (the scripted model has no tokens or model time)')]
                : [costFigure('tokens', 'Cost: tokens', 'tokens / episode', 'tokens'), costFigure('model_s', 'Cost: model time', 'model s / episode', 's')]),
            ])
          : null,
        h('div.row', [
          chartFigure({
            id: 'pass-k',
            title: epochs === 1 ? 'pass^k' : 'pass^k over k',
            caption: epochs === 1 ? 'pass^k needs ≥ 2 epochs; this run has 1, so only pass^1 (= success) with its 95% interval' : 'every one of k epochs passes; bands: 95% interval',
            summary: `pass^k per strategy: ${stats.strategies.map((s) => `${s.strategy} ${s.passK.map((p) => `k=${p.k} ${pct(p.passHatK.estimate)}`).join(', ')}`).join('; ')}.`,
            make: () => passKChart(passK, strategies),
            links: stats.strategies.map((s) => ({ label: `${s.strategy}: pass^${s.passK.at(-1)?.k ?? 1} = ${interval(s.passK.at(-1)?.passHatK)}`, filters: { strategy: s.strategy } })),
          }),
          replanStrategies.length > 0
            ? chartFigure({
                id: 'replans',
                title: 'Replans per episode',
                caption: 'click a bar for the strategy',
                summary: `Episodes by replans: ${replanRows.map((r) => `${r.strategy} ${r.replans} replans: ${r.count}`).join('; ')}.`,
                make: () => replanChart(replanRows, replanStrategies, strategies),
                links: replanStrategies.map((s) => ({ label: `${s}: ${replanRows.filter((r) => r.strategy === s && r.replans > 0).reduce((n, r) => n + r.count, 0)} episodes replanned`, filters: { strategy: s } })),
              })
            : emptyFigure('replans', 'Replans per episode', 'no episode replanned'),
        ]),
        attributed.length > 0
          ? h('div.row', [
              chartFigure({
                id: 'failures-component',
                title: 'Failures by component',
                caption: 'attributed failed episodes',
                summary: `Failed episodes by component: ${byComponent.map((r) => `${r.strategy} ${r.component} ${r.count}`).join(', ')}.`,
                make: () => failureChart(byComponent, { along: 'strategy', domain: strategies, stack: 'component', color: componentColors(components) }),
                links: byComponent.map((r) => ({ label: `${r.strategy} · ${r.component}: ${r.count}`, filters: { strategy: r.strategy, component: r.component } })),
              }),
              chartFigure({
                id: 'failures-mode',
                title: 'Failures by mode',
                caption: 'component.mode',
                summary: `Failed episodes by mode: ${byMode.map((r) => `${r.strategy} ${r.mode} ${r.count}`).join(', ')}.`,
                make: () => failureChart(byMode, { along: 'mode', domain: modeTotals.map((m) => m.mode), stack: 'strategy', color: colors(strategies) }),
                links: byMode.map((r) => ({ label: `${r.strategy} · ${r.mode}: ${r.count}`, filters: { strategy: r.strategy, mode: r.mode } })),
              }),
            ])
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
        'div.scroll',
        { tabindex: 0, role: 'region', 'aria-label': 'paired comparisons' },
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
                h('td', pText(c.test.pValue)),
                h('td', pText(c.adjustedPValue)),
                h('td', c.minimumDetectableEffect === null ? '—' : `${(100 * c.minimumDetectableEffect).toFixed(0)} pp`),
                h('td', c.test.method),
              );
            }),
          ),
        ),
      ),
    ]);
  }
