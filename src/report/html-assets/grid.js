// Task × strategy grid with filters, and the episode list of an open cell.
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

