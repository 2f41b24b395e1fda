// Overview: success numbers, headline, charts (Observable Plot) and the paired comparisons table.
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

