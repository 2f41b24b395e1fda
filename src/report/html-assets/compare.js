// Compare view (#compare): the decision in one sentence with its reasons folded by kind, forest plots of head − base
// with the MDE band, the gate's p beside Holm's, flipped tasks split regressed / improved, changed prompts as diffs,
// configuration differences; and #pair/TASK/STRATEGY: base and head traces of one task side by side, aligned by step.
  // ---- compare view -------------------------------------------------------------------------------------------
  const VERDICT_STYLE = {
    regressed: { color: '#b91c1c', symbol: 'triangle', label: 'regressed' },
    dropped: { color: '#b91c1c', symbol: 'triangle', label: 'dropped' },
    improved: { color: '#15803d', symbol: 'diamond', label: 'improved' },
    rose: { color: '#15803d', symbol: 'diamond', label: 'rose' },
    inconclusive: { color: '#a16207', symbol: 'square', label: 'inconclusive' },
    'no significant change': { color: '#4b5563', symbol: 'circle', label: 'no significant change' },
  };
  const verdictStyle = (verdict) => VERDICT_STYLE[verdict] ?? VERDICT_STYLE['no significant change'];
  /** Rows of a flip table shown before "show all". */
  const FLIP_PAGE = 25;
  const pairHash = (task, strategy) => `#pair/${enc(task)}/${enc(strategy)}`;

  /**
   * A forest plot of head − base (pp) per row: the 95% interval, the point (symbol and colour by verdict), the ±MDE band
   * shaded behind each row, a zero line, and each row's verdict and p as text in the right margin.
   */
  function forestPlot(rows, label, summary, caption) {
    const data = rows.map((row) => ({
      ...row,
      label: label(row),
      x: 100 * row.estimate,
      x1: 100 * row.lower,
      x2: 100 * row.upper,
      mdeBand: row.mde === null ? 100 : Math.min(100, 100 * row.mde),
      note: `${verdictStyle(row.verdict).label} · p ${row.text.p}`,
      color: verdictStyle(row.verdict).color,
      symbol: verdictStyle(row.verdict).symbol,
    }));
    const marginLeft = Math.max(60, ...data.map((d) => textWidth(d.label) + 14));
    const marginRight = Math.max(80, ...data.map((d) => textWidth(d.note) + 16));
    const plot = (width) =>
      Plot.plot({
        width,
        height: 44 + 26 * data.length,
        marginLeft,
        marginRight,
        x: { domain: [-100, 100], label: 'head − base (percentage points)', labelAnchor: 'center', grid: true, tickFormat: (v) => `${v > 0 ? '+' : ''}${v}` },
        y: { domain: data.map((d) => d.label), label: null },
        marks: [
          Plot.barX(data, { x1: (d) => -d.mdeBand, x2: (d) => d.mdeBand, y: 'label', fill: '#dbe4f0', className: 'forest-mde' }),
          Plot.ruleX([0], { stroke: '#111', strokeWidth: 1.5 }),
          Plot.ruleY(data, { y: 'label', x1: 'x1', x2: 'x2', stroke: 'color', strokeWidth: 2, className: 'forest-interval' }),
          Plot.dot(data, { x: 'x', y: 'label', symbol: 'symbol', fill: 'color', stroke: 'white', r: 6, className: 'forest-point' }),
          Plot.text(data, { x: 100, y: 'label', text: 'note', textAnchor: 'start', dx: 10, fill: '#1a1a1a', className: 'forest-note' }),
        ],
      });
    // Drawn at the width it gets (re-drawn when that changes), so its labels keep their size in a narrow window.
    const holder = h('div.forest-chart');
    const fit = (width) => Math.max(marginLeft + marginRight + 200, Math.min(1100, Math.floor(width)));
    let drawn = 0;
    const draw = (width) => {
      drawn = fit(width);
      holder.replaceChildren(accessibleChart(plot(drawn), summary));
    };
    draw(window.innerWidth - 64);
    const observer = new ResizeObserver(([entry]) => {
      if (!holder.isConnected) observer.disconnect();
      else if (entry.contentRect.width > 0 && Math.abs(fit(entry.contentRect.width) - drawn) > 8) draw(entry.contentRect.width);
    });
    observer.observe(holder);
    return h('figure.forest', [holder, h('figcaption.hint', caption)]);
  }

  const strategySummary = (rows) =>
    `Forest plot of head minus base success per strategy: ${rows.map((r) => `${r.strategy} ${r.text.delta} pp [${r.text.interval.slice(1, -1)}], ${verdictStyle(r.verdict).label}, p ${r.text.p}, MDE ${r.text.mde}`).join('; ')}.`;
  const groupSummary = (rows) =>
    `Forest plot of head minus base success per strategy and group: ${rows.filter((r) => r.significant).length} of ${rows.length} rows changed significantly${rows.some((r) => r.significant) ? ` (${rows.filter((r) => r.significant).map((r) => `${r.strategy} · ${r.group} ${r.text.delta} pp`).join(', ')})` : ''}; the numbers are in the table folded below.`;

  function changesTable(id, rows, first, withGate) {
    const head = [first, 'base', 'head', 'Δ (pp)', '95% interval', withGate ? 'MDE (gate)' : 'MDE', "p (the gate's test)", withGate ? 'p (Holm, not used by the gate)' : null, withGate ? 'verdict' : 'change'].filter(Boolean);
    const row = (d) =>
      h(
        'tr',
        { 'data-strategy': d.strategy, 'data-group': d.group, class: d.verdict === 'regressed' || d.verdict === 'dropped' ? 'regressed' : null },
        h('th', { scope: 'row' }, d.group === null ? d.strategy : `${d.strategy} · ${d.group}`),
        h('td', d.text.base),
        h('td', d.text.head),
        h('td', { class: d.significant ? 'significant' : null }, d.text.delta),
        h('td', d.text.interval),
        h('td', d.text.mde),
        h('td.gate-p', d.text.p),
        withGate ? h('td.holm-p', d.text.p_holm) : null,
        h('td', h(`span.verdict.${verdictStyle(d.verdict).symbol}`, verdictStyle(d.verdict).label)),
      );
    return h('div.table-scroll', { tabindex: 0, role: 'region', 'aria-label': `${first} numbers` }, h(`table.numbers#${id}`, h('thead', h('tr', head.map((x) => h('th', { scope: 'col' }, x)))), h('tbody', rows.map(row))));
  }

  function reasonFolds(reasons) {
    if (reasons.length === 0) return h('p', 'No reason to report: every strategy’s design could detect the smallest drop asked for, and none dropped.');
    return h(
      'div#reasons',
      h('p.reason-counts', reasons.map((group, i) => [i ? ' · ' : '', h('strong', String(group.items.length)), ` ${group.label.toLowerCase()}`])),
      reasons.map((group) => h('details.reason-group', { 'data-kind': group.kind }, h('summary', `${group.label} (${group.items.length})`), h('ul', group.items.map((item) => h('li', item))))),
    );
  }

  function failureText(side) {
    if (side.failures.length === 0) return h('span.passed', '— (passed)');
    return side.failures.map((failure, i) => {
      const at = failure.indexOf('.');
      const [component, mode] = at < 0 ? [failure, ''] : [failure.slice(0, at), failure.slice(at + 1)];
      return [i ? ', ' : '', h('span.component', component), mode ? [' · ', h('code.mode', mode)] : ''];
    });
  }

  function flipTable(kind, rows) {
    if (rows.length === 0) return h('p.hint', `No ${kind} task.`);
    const sideCell = (side) => h('td', h('div', side.label), h('div.failure', failureText(side)));
    const line = (f) =>
      h(
        'tr',
        { class: `${f.direction}${f.gating ? ' gating' : ''}`, 'data-task': f.task, 'data-strategy': f.strategy },
        h('th', { scope: 'row' }, h('div', f.task, f.gating ? h('span.gating-tag', ' gating') : null), h('div.hint', f.group)),
        h('td', f.strategy),
        sideCell(f.base),
        sideCell(f.head),
        h(
          'td.links',
          h('a.pair-link', { href: pairHash(f.task, f.strategy) }, 'side by side'),
          h('a', { href: episodeHash('base', { task: f.task, strategy: f.strategy, epoch: f.base.epoch }) }, 'base trace'),
          h('a', { href: episodeHash('head', { task: f.task, strategy: f.strategy, epoch: f.head.epoch }) }, 'head trace'),
        ),
      );
    const body = h('tbody', rows.slice(0, FLIP_PAGE).map(line));
    const more =
      rows.length > FLIP_PAGE
        ? h('button.show-all', { type: 'button', onclick: (event) => { body.append(...rows.slice(FLIP_PAGE).map(line)); event.currentTarget.remove(); } }, `Show all ${rows.length} ${kind} tasks`)
        : null;
    const head = h('tr', ['task · group', 'strategy', 'base: label · failure (component · mode)', 'head: label · failure (component · mode)', 'traces'].map((x) => h('th', { scope: 'col' }, x)));
    return [h('div.table-scroll', { tabindex: 0, role: 'region', 'aria-label': `${kind} tasks` }, h(`table.flips#flips-${kind}`, h('thead', head), body)), more];
  }

  function promptView(change) {
    if (!change.recorded) {
      return h('div.prompt-change', { 'data-role': change.role },
        h('h3', `${change.role} prompt`),
        h('p.prompt-unrecorded', 'The texts were not recorded (a run.json written before stratbench kept prompt texts); only their sha256 differ:'),
        h('ul.hashes', h('li', 'base ', h('code', change.base_sha256 ?? '(none)')), h('li', 'head ', h('code', change.head_sha256 ?? '(none)'))),
      );
    }
    const marker = { added: '+', removed: '−', context: ' ' };
    const lineView = (line) => h(`div.diff-line.${line.kind}`, h('span.marker', marker[line.kind]), line.kind === 'added' ? h('ins', line.text) : line.kind === 'removed' ? h('del', line.text) : h('span', line.text));
    return h('div.prompt-change', { 'data-role': change.role },
      h('h3', `${change.role} prompt: ${change.added} line${change.added === 1 ? '' : 's'} added, ${change.removed} removed`),
      h('div.prompt-diff', { tabindex: 0, role: 'region', 'aria-label': `diff of the ${change.role} prompt, base to head` }, change.hunks.map((hunk) => [h('div.hunk-header', hunk.header), hunk.lines.map(lineView)])),
    );
  }

  function compareView() {
    const route = parseHash();
    if (route.view === 'pair') return pairView(route.rest[0] ?? '', route.rest[1] ?? '');
    const c = payload.comparison;
    const byKind = (kind) => c.flips.filter((f) => f.kind === kind);
    const [regressed, improved, changed] = [byKind('regressed'), byKind('improved'), byKind('changed')];
    return h('main.compare', [
      h('section#decision', [
        h('h2#verdict', `Verdict: ${c.verdict}`),
        h('p#decision-sentence', c.sentence),
        reasonFolds(c.reasons),
      ]),
      h('section', [
        h('h2', 'Change per strategy'),
        h('p.hint', `Δ = head − base in percentage points on the tasks both runs scored, with its 95% interval. p is the gate’s: the paired test’s unadjusted p, what \`stratbench compare\` prints and --fail-on-regression decides on (a drop with p < ${c.alpha} regresses). The Holm-adjusted p (across strategies) is shown for reference and decides nothing. With few tasks a bootstrap interval can exclude 0 while p ≥ 0.05: the sign-flip test is exact, the interval approximate, and the gate uses p.`),
        forestPlot(c.strategies, (r) => r.strategy, strategySummary(c.strategies), `Shaded: ±MDE, the smallest change the gate’s test detects with 80% power at α = ${c.alpha} with these tasks (families as clusters); a point inside it is too small to tell apart from no change. ▲ regressed · ◆ improved · ■ inconclusive · ● no significant change.`),
        changesTable('compare-strategies', c.strategies, 'strategy', true),
      ]),
      c.groups.length
        ? h('section', [
            h('h2', 'Change per strategy × group'),
            forestPlot(c.groups, (r) => `${r.strategy} · ${r.group}`, groupSummary(c.groups), 'Shaded: ±MDE at the group’s own number of tasks. Group rows are descriptive: the gate decides per strategy.'),
            h('details.group-numbers', h('summary', `Numbers per strategy × group (${c.groups.length} rows)`), changesTable('compare-groups', c.groups, 'strategy · group', false)),
          ])
        : null,
      h('section#flips', [
        h('h2', `Flipped tasks (${c.flips.length})`),
        c.flips.length === 0 ? h('p', 'No task changed label.') : null,
        h('h3#flips-regressed-heading', `Regressed (${regressed.length})`),
        flipTable('regressed', regressed),
        h('h3#flips-improved-heading', `Improved (${improved.length})`),
        flipTable('improved', improved),
        changed.length ? h('details.changed-flips', h('summary', `Changed label at the same rate (${changed.length})`), flipTable('changed', changed)) : null,
      ]),
      h('section#prompts', [
        h('h2', `Changed prompts (${c.prompts.length})`),
        c.prompts.length ? c.prompts.map(promptView) : h('p', 'Same prompts (equal sha256 for every role).'),
      ]),
      h('section', [
        h('h2', 'Configuration differences'),
        c.configuration.length
          ? h('div.table-scroll', { tabindex: 0, role: 'region', 'aria-label': 'configuration differences' }, h('table#config-diff', h('thead', h('tr', ['field', 'base', 'head'].map((x) => h('th', { scope: 'col' }, x)))), h('tbody', c.configuration.map((d) => h('tr', h('td', h('code', d.field)), h('td', h('code', d.base)), h('td', h('code', d.head)))))))
          : h('p', 'Same configuration.'),
      ]),
    ]);
  }

  // ---- #pair/TASK/STRATEGY: base and head side by side ----------------------------------------------------------
  /** The epoch the pair view shows for a side (compare-data.ts epochToShow): the first failed scored epoch, else the first. */
  function pairEpoch(rows, task, strategy) {
    const cell = rows.filter((r) => r.task === task && r.strategy === strategy).sort((a, b) => a.epoch - b.epoch);
    return cell.find((r) => !r.success && r.status !== 'error') ?? cell[0] ?? null;
  }

  /** The plan a trace ended with (its last plan or plan revision), or null when the strategy made none. */
  const finalPlan = (detail) => [...detail.trace].reverse().find((e) => e.type === 'plan' || e.type === 'plan_revision')?.plan ?? null;

  /** The diff between two final plans by step id: added (head only), removed (base only), revised (same id, other tool, args, text or dependencies). */
  function planDifference(before, after) {
    const beforeSteps = new Map((before?.steps ?? []).map((s) => [s.id, s]));
    const afterSteps = new Map((after?.steps ?? []).map((s) => [s.id, s]));
    const shape = (s) => oneLine([s.tool, s.args, s.does, s.depends_on, s.expect ?? null]);
    return {
      added: [...afterSteps.keys()].filter((id) => !beforeSteps.has(id)),
      removed: [...beforeSteps.keys()].filter((id) => !afterSteps.has(id)),
      revised: [...afterSteps.keys()].filter((id) => beforeSteps.has(id) && shape(beforeSteps.get(id)) !== shape(afterSteps.get(id))),
    };
  }

  /** The final plans' diff in the trace viewer's visual language: head's steps marked added / revised, base-only steps struck. */
  function planDiffView(before, after) {
    if (!before && !after) return h('p.hint#plan-diff', 'Neither side made a plan (this strategy does not plan): no plan diff.');
    const diff = planDifference(before, after);
    const beforeSteps = new Map((before?.steps ?? []).map((s) => [s.id, s]));
    const stepText = (step) => [h('code', step.id), ` ${step.tool} `, h('code.args', step.args === null ? '(args from earlier results)' : oneLine(step.args)), step.depends_on.length ? ` ← ${step.depends_on.join(', ')}` : '', ` — ${step.does}`];
    const mark = (id) => (diff.added.includes(id) ? 'added' : diff.revised.includes(id) ? 'revised' : null);
    const steps = (after?.steps ?? []).map((step) => {
      const m = mark(step.id);
      const was = m === 'revised' ? beforeSteps.get(step.id) : null;
      return h('li', { class: `step ${m ?? ''}`, 'data-step': step.id, 'data-mark': m }, stepText(step), m ? h(`span.mark.${m}`, m) : null, was ? h('div.was', 'base had: ', stepText(was)) : null);
    });
    for (const id of diff.removed) steps.push(h('li', { class: 'step removed', 'data-step': id, 'data-mark': 'removed' }, h('del', stepText(beforeSteps.get(id))), h('span.mark.removed', 'removed')));
    return h('div.plan#plan-diff', [
      h('p.diff-summary', `final plans, base → head: ${diff.added.length} added, ${diff.removed.length} removed, ${diff.revised.length} revised`),
      !before ? h('p.hint', 'The base made no plan: every head step is new.') : null,
      !after ? h('p.hint', 'The head made no plan: every base step is gone.') : null,
      before && after && before.goal !== after.goal ? h('p', 'goal: ', h('del', before.goal), ' → ', h('ins', after.goal)) : h('p', 'goal: ', (after ?? before).goal),
      h('ol.steps', steps),
    ]);
  }

  /**
   * A side's trace as tokens to align: one per plan step (all its sections, at the step's first event) and one per
   * event outside a step, keyed so that like matches like (`step:s1`, `model_call:planner`, `tool_call:read`, `end`, …).
   */
  function pairTokens(sections, trace) {
    const byId = new Map(trace.map((event) => [event.id, event]));
    const tokens = [];
    const steps = new Map();
    for (const section of sections) {
      const step = section.dataset.step;
      if (step) {
        if (!steps.has(step)) {
          steps.set(step, { key: `step:${step}`, step, sections: [] });
          tokens.push(steps.get(step));
        }
        steps.get(step).sections.push(section);
        continue;
      }
      const event = byId.get(Number(section.dataset.event)) ?? {};
      const detail = event.type === 'model_call' ? event.role : event.type === 'tool_call' ? event.tool : event.type === 'check' ? event.scope : '';
      tokens.push({ key: `${event.type}:${detail ?? ''}`, step: null, sections: [section] });
    }
    return tokens;
  }

  /**
   * Pairs two token lists: matched on their longest common subsequence of keys (a step with the same step, a planner call
   * with a planner call, …); between two matches, the unmatched events outside steps pair up in order and an unmatched
   * step gets a row of its own. Returns [baseToken | null, headToken | null] rows.
   */
  function alignTokens(a, b) {
    const table = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
    for (let i = a.length - 1; i >= 0; i -= 1) for (let j = b.length - 1; j >= 0; j -= 1) table[i][j] = a[i].key === b[j].key ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    const rows = [];
    let baseOnly = [];
    let headOnly = [];
    const flush = () => {
      let [i, j] = [0, 0];
      while (i < baseOnly.length || j < headOnly.length) {
        const [x, y] = [baseOnly[i], headOnly[j]];
        if (x && y && !x.step && !y.step) rows.push([baseOnly[i++], headOnly[j++]]);
        else if (x && (x.step || !y)) rows.push([baseOnly[i++], null]);
        else rows.push([null, headOnly[j++]]);
      }
      baseOnly = [];
      headOnly = [];
    };
    let [i, j] = [0, 0];
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i].key === b[j].key) {
        flush();
        rows.push([a[i++], b[j++]]);
      } else if (j >= b.length || (i < a.length && table[i + 1][j] >= table[i][j + 1])) baseOnly.push(a[i++]);
      else headOnly.push(b[j++]);
    }
    flush();
    return rows;
  }

  /** The aligned rows as two-column elements; a row holding a plan step carries data-step. */
  function alignedRows(baseTokens, headTokens) {
    const cell = (side, token, other) =>
      h(`div.pair-cell.${side}`, h('span.side-tag', side), token ? token.sections : h('p.hint', other?.step ? `no step ${other.step} on this side` : '—'));
    return alignTokens(baseTokens, headTokens).map(([base, head]) => {
      const step = base?.step ?? head?.step ?? null;
      return h(`div.pair-row.${step ? 'step-row' : 'gap-row'}`, { 'data-step': step }, cell('base', base, head), cell('head', head, base));
    });
  }

  function pairView(task, strategy) {
    const flip = payload.comparison.flips.find((f) => f.task === task && f.strategy === strategy);
    const rowOf = (side) => {
      const rows = payload[side].episodes;
      const epoch = flip ? flip[side].epoch : pairEpoch(rows, task, strategy)?.epoch;
      return rows.find((r) => r.task === task && r.strategy === strategy && r.epoch === epoch) ?? null;
    };
    const rows = { base: rowOf('base'), head: rowOf('head') };
    const sideLine = (side) => {
      const row = rows[side];
      if (!row) return h('li', `${side}: no episode of this task × strategy`);
      return h('li', { 'data-side': side }, h('strong', side), ` · epoch ${row.epoch} · `, h(`span.${row.success ? 'ok' : 'bad'}`, row.success ? 'success' : row.status === 'error' ? 'error' : 'failure'), flip ? ` · ${flip[side].label}` : '', row.attribution ? [' · ', h('code', row.attribution)] : '', ' · ', h('a', { href: episodeHash(side, row) }, `open the ${side} episode`));
    };
    const body = h('div#pair-body', h('p.loading', 'Loading both traces…'));
    const main = h('main.pair#pair', { 'data-task': task, 'data-strategy': strategy }, [
      h('p', h('a', { href: '#compare' }, '← back to the comparison')),
      h('h2#pair-title', `${task} × ${strategy}: base and head side by side`),
      h('ul.pair-sides', sideLine('base'), sideLine('head')),
      body,
    ]);
    const detailOf = (side) => (rows[side] ? episodeDetail(side, rows[side]) : Promise.resolve(null));
    Promise.all([detailOf('base'), detailOf('head')]).then(
      ([baseDetail, headDetail]) => {
        const sectionsOf = (side, detail) => {
          const sections = traceSections(side, rows[side], detail, payload[side], `${side}-`);
          for (const section of sections) section.id = `${side}-${section.id}`;
          return sections;
        };
        const missing = (side) => (rows[side] ? traceUnavailable(side, rows[side]) : h('p.problem', `The ${side} run has no episode of ${task} × ${strategy}.`));
        const baseSections = baseDetail ? sectionsOf('base', baseDetail) : null;
        const headSections = headDetail ? sectionsOf('head', headDetail) : null;
        const column = (side, sections) => h(`div.pair-cell.${side}`, h('span.side-tag', side), sections ?? missing(side));
        const traces = h(
          'div.pair-grid#pair-trace',
          baseSections && headSections ? alignedRows(pairTokens(baseSections, baseDetail.trace), pairTokens(headSections, headDetail.trace)) : h('div.pair-row', column('base', baseSections), column('head', headSections)),
        );
        body.replaceChildren(
          h('h3', 'Plan diff'),
          baseDetail && headDetail ? planDiffView(finalPlan(baseDetail), finalPlan(headDetail)) : h('p.hint#plan-diff', 'No plan diff: one side’s trace is not in this page.'),
          h('h3', 'Traces, aligned by step'),
          h('p.hint', 'Each row holds one plan step’s events on both sides; events outside a step (model calls, plans, the end) pair up in order between steps.'),
          h('div.pair-columns', h('div.pair-heading', 'base'), h('div.pair-heading', 'head')),
          traces,
        );
        main.dataset.loaded = 'true';
      },
      (error) => {
        body.replaceChildren(h('p.problem', `cannot read the traces: ${error.message}`));
        main.dataset.loaded = 'true';
      },
    );
    return main;
  }
