// Compare view: the decision, changes per strategy and group, flipped tasks, configuration differences.
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

