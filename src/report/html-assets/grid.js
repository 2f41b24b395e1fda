// Task × strategy grid: filters read from and written to the URL, a virtualised body under sticky headers, keyboard
// navigation (one button per cell, roving tabindex, arrow keys) and the episode list of the open cell.
  // ---- the grid's index: built once per source, so a filter change only walks precomputed cells ---------------
  /** The row pitch assumed until a rendered row is measured (px; grid.css gives rows this height). */
  const GRID_ROW_PX = 30;
  /** Rows rendered above and below the viewport. */
  const GRID_OVERSCAN = 12;
  const GRID_OUTCOMES = ['stable-pass', 'flaky', 'stable-fail', 'any-failure', 'error'];
  /** The component and mode of a failed episode without an attribution (the overview's charts use the same name). */
  const UNATTRIBUTED = '(unattributed)';
  const gridIndexes = new WeakMap();

  /**
   * The grid's view of a source, computed once: tasks in display order (group, then fixture × family sub-group), each
   * with one cell per strategy (null when it has no episode): { rows, label, passes, scored, errors, modes, components,
   * text } — modes/components: the attributions of its failed episodes; text: lower-cased task id, group, family,
   * fixture, attributions, explanations and failing checks, which the `q` filter searches.
   */
  function gridIndexOf(source) {
    const known = gridIndexes.get(source);
    if (known) return known;
    const strategies = [...source.strategies];
    for (const row of source.episodes) if (!strategies.includes(row.strategy)) strategies.push(row.strategy);
    const column = new Map(strategies.map((s, i) => [s, i]));
    const byTask = new Map();
    for (const row of source.episodes) {
      let t = byTask.get(row.task);
      if (!t) {
        t = { task: row.task, group: row.group, family: row.family ?? null, fixture: row.fixture ?? null, cells: strategies.map(() => null) };
        byTask.set(row.task, t);
      }
      const col = column.get(row.strategy);
      if (!t.cells[col]) t.cells[col] = { task: row.task, strategy: row.strategy, rows: [] };
      t.cells[col].rows.push(row);
    }
    const lower = (x) => (x ?? '').toLowerCase();
    for (const t of byTask.values()) {
      t.subgroup = [t.fixture ? `fixture ${t.fixture}` : null, t.family ? `family ${t.family}` : null].filter(Boolean).join(' · ');
      const taskText = [t.task, t.group, t.family, t.fixture].map(lower).join('\n');
      for (const cell of t.cells) {
        if (!cell) continue;
        const scored = cell.rows.filter((r) => r.status !== 'error');
        cell.label = cellLabel(cell.rows);
        cell.scored = scored.length;
        cell.passes = scored.filter((r) => r.success).length;
        cell.errors = cell.rows.length - scored.length;
        const failed = scored.filter((r) => !r.success);
        cell.modes = new Set(failed.map((r) => r.attribution ?? UNATTRIBUTED));
        cell.components = new Set(failed.map((r) => (r.attribution ? r.attribution.split('.')[0] : UNATTRIBUTED)));
        cell.text = [taskText, ...cell.rows.flatMap((r) => [r.attribution, r.explanation, r.failing].map(lower))].join('\n');
      }
    }
    const groups = [...source.groups];
    for (const t of byTask.values()) if (!groups.includes(t.group)) groups.push(t.group);
    const all = [...byTask.values()];
    const tasks = groups.flatMap((g) =>
      all
        .filter((t) => t.group === g)
        .sort((a, b) => (a.fixture ?? '').localeCompare(b.fixture ?? '') || (a.family ?? '').localeCompare(b.family ?? '') || a.task.localeCompare(b.task, 'en', { numeric: true })),
    );
    const sorted = (values) => [...new Set(values.filter(Boolean))].sort();
    const cells = tasks.flatMap((t) => t.cells.filter(Boolean));
    const index = {
      strategies,
      groups,
      tasks,
      families: sorted(tasks.map((t) => t.family)),
      fixtures: sorted(tasks.map((t) => t.fixture)),
      modes: sorted(cells.flatMap((c) => [...c.modes])),
      components: sorted(cells.flatMap((c) => [...c.components])),
    };
    gridIndexes.set(source, index);
    return index;
  }

  // ---- filters: the route's query parameters ---------------------------------------------------------------------
  /**
   * The grid's filters from the route (every key of GRID_FILTERS, '' when absent). `group=overall` (the overview's
   * overall bar) means every group; `unattributed` means the failed episodes without an attribution.
   */
  function gridFiltersOf(params) {
    const filters = {};
    for (const key of GRID_FILTERS) filters[key] = (params.get(key) ?? '').trim();
    if (filters.group === 'overall') filters.group = '';
    for (const key of ['mode', 'component']) if (filters[key] === 'unattributed') filters[key] = UNATTRIBUTED;
    return filters;
  }

  /** Whether a cell matches the cell-level filters: strategy, outcome, mode (component.mode), component, q (lower-cased). */
  function cellMatches(cell, filters, q) {
    if (!cell) return false;
    if (filters.strategy && cell.strategy !== filters.strategy) return false;
    if (filters.outcome) {
      const failing = cell.label === 'flaky' || cell.label === 'stable-fail';
      if (filters.outcome === 'any-failure' ? !failing : cell.label !== filters.outcome) return false;
    }
    if (filters.mode && !cell.modes.has(filters.mode)) return false;
    if (filters.component && !cell.components.has(filters.component)) return false;
    return !q || cell.text.includes(q);
  }

  /**
   * The rows of the filtered grid, in order: { kind: 'group' | 'subgroup' | 'task', … }. A task is listed when it passes
   * the task-level filters (group, family, fixture) and at least one of its cells matches; `match[col]` says which.
   */
  function gridItems(index, filters) {
    const q = filters.q.toLowerCase();
    const items = [];
    const taskItems = [];
    let group = null;
    let groupItem = -1;
    let subgroup = null;
    for (const t of index.tasks) {
      if ((filters.group && t.group !== filters.group) || (filters.family && t.family !== filters.family) || (filters.fixture && t.fixture !== filters.fixture)) continue;
      const match = t.cells.map((cell) => cellMatches(cell, filters, q));
      if (!match.includes(true)) continue;
      if (t.group !== group) {
        group = t.group;
        subgroup = null;
        groupItem = items.push({ kind: 'group', group, count: 0, groupItem: items.length }) - 1;
      }
      items[groupItem].count += 1;
      if (t.subgroup && t.subgroup !== subgroup) {
        subgroup = t.subgroup;
        items.push({ kind: 'subgroup', t, groupItem });
      }
      taskItems.push(items.push({ kind: 'task', t, match, pos: taskItems.length, groupItem }) - 1);
    }
    return { items, taskItems };
  }

  /** Notes for filter values this report does not have (the count then reads 0, and the note says why). */
  function gridProblems(index, filters) {
    const known = { strategy: index.strategies, group: index.groups, family: index.families, fixture: index.fixtures, outcome: GRID_OUTCOMES };
    return Object.entries(known)
      .filter(([key, values]) => filters[key] && !values.includes(filters[key]))
      .map(([key, values]) => `No ${key} “${filters[key]}” in this report (${values.length ? values.join(', ') : 'none'}).`);
  }

  // ---- navigation -------------------------------------------------------------------------------------------------
  /** What the grid remembers between renders (not filters: those live in the URL). */
  const gridMemory = { key: null, focus: null, live: null, scheduled: false, typed: null };

  /** Goes to `hash` as a new history entry (Back returns) and renders at once; `replace` rewrites the current entry. */
  function gridNavigate(hash, replace = false) {
    if (hash === location.hash) return;
    history[replace ? 'replaceState' : 'pushState'](null, '', hash);
    render();
  }

  /** Remembers the focused control (data-focus-key) or cell, so the re-rendered view gives focus back to it. */
  function rememberFocus() {
    const el = document.activeElement;
    if (el && el.dataset && el.dataset.focusKey) gridMemory.focus = { key: el.dataset.focusKey, caret: el.selectionStart ?? null };
    else if (el && el.classList && el.classList.contains('cell-button')) gridMemory.focus = { key: null, cell: el.closest('td').dataset.key };
  }

  const onGridViewportChange = () => {
    if (!gridMemory.live || gridMemory.scheduled) return;
    gridMemory.scheduled = true;
    requestAnimationFrame(() => {
      gridMemory.scheduled = false;
      const live = gridMemory.live;
      if (live && live.tbody.isConnected) live.update(false);
      else gridMemory.live = null;
    });
  };
  window.addEventListener('scroll', onGridViewportChange, { passive: true });
  window.addEventListener('resize', onGridViewportChange, { passive: true });

  // ---- the view ---------------------------------------------------------------------------------------------------
  /** The grid of `source` (a run, or one side of a comparison: side 'base' | 'head' | null) with the route's filters. */
  function grid(source, side, route = parseHash()) {
    const index = gridIndexOf(source);
    const filters = gridFiltersOf(route.params);
    const { items, taskItems } = gridItems(index, filters);
    const strategies = index.strategies;
    const go = (changes, replace = false) => {
      rememberFocus();
      gridNavigate(gridHref(side, { ...filters, ...changes }), replace);
    };
    const select = (name, label, options) => {
      const values = filters[name] && !options.includes(filters[name]) ? [...options, filters[name]] : options;
      return h('label', `${label} `, h('select', { name, 'data-focus-key': `filter-${name}`, onchange: (event) => go({ [name]: event.target.value, open: '' }) }, h('option', { value: '' }, 'all'), values.map((o) => h('option', { value: o, selected: filters[name] === o }, o))));
    };
    let typing = null;
    const text = h('input', {
      type: 'search',
      name: 'q',
      value: filters.q,
      placeholder: 'task, attribution, check',
      'data-focus-key': 'filter-q',
      oninput: (event) => {
        clearTimeout(typing);
        // the first pause adds a history entry, later ones rewrite it (Back returns to the grid before typing)
        typing = setTimeout(() => {
          const replace = gridMemory.typed === location.hash;
          go({ q: event.target.value.trim(), open: '' }, replace);
          gridMemory.typed = location.hash;
        }, 300);
      },
      onkeydown: (event) => {
        if (event.key !== 'Enter') return;
        clearTimeout(typing);
        go({ q: event.target.value.trim(), open: '' });
      },
    });
    const active = GRID_FILTERS.some((key) => key !== 'open' && filters[key]);
    const [openTask, openStrategy] = filters.open ? filters.open.split('|') : [null, null];
    const openTaskEntry = openTask ? index.tasks.find((t) => t.task === openTask) : null;
    const openCell = openTaskEntry ? openTaskEntry.cells[strategies.indexOf(openStrategy)] ?? null : null;
    const problems = gridProblems(index, filters);
    if (filters.open && !openCell) problems.push(`No cell ${openTask} × ${openStrategy ?? '?'} in this report.`);

    const body = gridBody({ index, filters, items, taskItems, side, go, openCell });
    gridMemory.live = body;
    const key = `${side}|${gridHref(side, { ...filters, open: '' })}`;
    const onScreen = gridMemory.key === key && document.getElementById('grid') !== null;
    gridMemory.key = key;
    const focus = gridMemory.focus;
    gridMemory.focus = null;
    // After main.js has put the view in the page: measure, place the rows, scroll, give focus back.
    queueMicrotask(() => body.mounted({ keepScroll: onScreen, focus, openPos: openCell && !onScreen ? body.posOf(openCell) : null }));

    return h('main.grid-view', { class: openCell ? 'grid-view has-open' : 'grid-view' }, [
      h('section.filters', { 'aria-label': 'grid filters' }, [
        select('strategy', 'strategy', index.strategies),
        select('group', 'group', index.groups),
        index.families.length > 0 ? select('family', 'family', index.families) : null,
        index.fixtures.length > 0 ? select('fixture', 'fixture', index.fixtures) : null,
        select('outcome', 'outcome', GRID_OUTCOMES),
        select('mode', 'attribution', index.modes),
        select('component', 'component', index.components),
        h('label', 'text ', text),
        active ? h('a.clear', { href: gridHref(side, {}) }, 'clear filters') : null,
        h('span.hint#grid-count', { role: 'status' }, `${taskItems.length} task(s) shown`),
        h('a.search-link', { href: searchHref(side, filters.q) }, filters.q ? `search traces for “${clip(filters.q, 30)}”` : 'search answers, messages and outputs'),
      ]),
      problems.length ? h('div#grid-problems', problems.map((p) => h('p.problem', p))) : null,
      h('div.legend', [
        ...[['stable-pass', 'every epoch passed'], ['flaky', 'some epochs passed'], ['stable-fail', 'no epoch passed'], ['error', 'errors only']].map(([c, t]) => h(`span.cell.${c}`, `${c}: ${t}`)),
        active ? h('span.cell.dim', 'dimmed: does not match the filters') : null,
      ]),
      h('div.grid-and-panel', h('div.grid-wrap', body.table), openCell ? episodeList(openCell, side, () => go({ open: '' })) : null),
    ]);
  }

  /** The open cell's episodes, each a link to its trace; `close` closes the panel. */
  function episodeList(cell, side, close) {
    const verdict = (r) => (r.success ? 'pass' : r.status === 'error' ? 'error' : 'fail');
    return h('aside.episodes#episode-list', { 'aria-label': `episodes of ${cell.task} × ${cell.strategy}` }, [
      h('div.panel-head', h('h2', `${cell.task} × ${cell.strategy}`), h('button.close', { type: 'button', onclick: close, 'aria-label': 'close the episode list' }, '×')),
      h('p.hint', `${cell.label} · ${cell.passes}/${cell.scored} passed${cell.errors ? ` · ${cell.errors} error(s)` : ''}`),
      h(
        'ul',
        cell.rows.map((r) =>
          h(
            'li',
            { class: verdict(r) },
            h('a', { href: episodeHash(side, r) }, `epoch ${r.epoch}`),
            ` ${verdict(r)} · ${r.status} (${r.reason})`,
            r.attribution ? h('div.attribution-line', h('code', r.attribution), ` ${clip(r.explanation ?? '', 200)}`) : null,
            !r.success && r.failing ? h('div.hint', clip(r.failing, 200)) : null,
          ),
        ),
      ),
    ]);
  }

  // ---- the virtualised body ---------------------------------------------------------------------------------------
  /**
   * The grid's <table> with only the rows near the viewport in the DOM: a spacer row above and below stands for the
   * rest (every row, heading rows included, is one pitch tall), and the heading of the first row's group stays in the
   * DOM so it sticks under the header. One button per cell; one of them is in the tab order (roving tabindex) and the
   * arrow keys, Page Up/Down and Home/End (Ctrl: first/last task) move between them. Returns { table, tbody, update,
   * mounted, posOf }.
   */
  function gridBody({ index, filters, items, taskItems, side, go, openCell }) {
    const strategies = index.strategies;
    const width = strategies.length + 1;
    let pitch = GRID_ROW_PX;
    let start = 0;
    let end = 0;
    let activePos = 0;
    let activeCol = 0;
    const tbody = h('tbody');
    const thead = h('thead', h('tr', h('th.task-head', { scope: 'col' }, 'task'), strategies.map((s) => h('th', { scope: 'col', class: filters.strategy === s ? 'chosen' : null, 'data-strategy': s }, s))));
    const columnWidth = `${(Math.min(65, 13 * strategies.length) / strategies.length).toFixed(2)}%`;
    const table = h(
      'table.grid#grid',
      { onkeydown: onKey, onfocusin: onFocus },
      h('caption.visually-hidden', 'Tasks × strategies: epochs passed / scored per cell. Arrow keys move between cells; Enter opens a cell’s episodes.'),
      h('colgroup', h('col.task-col'), strategies.map(() => h('col', { style: `width: ${columnWidth}` }))),
      thead,
      tbody,
    );
    const taskOf = (pos) => items[taskItems[pos]].t;
    /** The column nearest `col` (towards `step` first) where task `pos` has a cell. */
    const nearestCol = (pos, col, step) => {
      const cells = taskOf(pos).cells;
      for (let d = 0; d < cells.length; d += 1) {
        for (const c of step ? [col + step * d] : [col + d, col - d]) if (cells[c]) return c;
      }
      return cells.findIndex(Boolean);
    };
    if (taskItems.length > 0) activeCol = nearestCol(0, filters.strategy ? Math.max(0, strategies.indexOf(filters.strategy)) : 0, 0);

    const spacer = (px) => {
      const td = h('td', { colspan: width });
      td.style.height = `${px}px`;
      return h('tr.spacer', { 'aria-hidden': 'true' }, td);
    };
    function cellOf(cell, col, item) {
      const key = `${cell.task}|${cell.strategy}`;
      const open = openCell === cell;
      const summary = `${cell.passes}/${cell.scored}`;
      return h(
        'td',
        { class: `cell ${cell.label}${item.match[col] ? '' : ' dim'}${open ? ' open' : ''}`, 'data-strategy': cell.strategy, 'data-label': cell.label, 'data-key': key, title: `${cell.task} × ${cell.strategy}: ${cell.label}` },
        h(
          'button.cell-button',
          {
            type: 'button',
            tabindex: item.pos === activePos && col === activeCol ? 0 : -1,
            'data-pos': item.pos,
            'data-col': col,
            'aria-expanded': open ? 'true' : 'false',
            'aria-label': `${summary}${cell.errors ? ` +${cell.errors} err` : ''}: ${cell.task} × ${cell.strategy}, ${cell.label}`,
            onclick: () => go({ open: open ? '' : key }),
          },
          summary,
          cell.errors ? h('span.err', ` +${cell.errors} err`) : null,
        ),
      );
    }
    function rowOf(i) {
      const item = items[i];
      if (item.kind === 'group') return h('tr.group-row', { 'data-group': item.group }, h('td', { colspan: width }, item.group, h('span.count', ` · ${item.count} task(s)`)));
      if (item.kind === 'subgroup') return h('tr.subgroup-row', { 'data-fixture': item.t.fixture ?? '', 'data-family': item.t.family ?? '' }, h('td', { colspan: width }, item.t.subgroup));
      const t = item.t;
      return h('tr', { 'data-task': t.task }, h('th.task', { scope: 'row', title: t.task }, t.task, t.family ? h('span.family', ` ${t.family}`) : null), t.cells.map((cell, col) => (cell ? cellOf(cell, col, item) : h('td.no-cell', '—'))));
    }
    function draw() {
      const focused = tbody.contains(document.activeElement) ? document.activeElement : null;
      const activeItem = taskItems[activePos];
      if (activeItem === undefined || activeItem < start || activeItem >= end) {
        const first = items.slice(start, end).find((item) => item.kind === 'task');
        if (first) {
          activePos = first.pos;
          activeCol = nearestCol(activePos, activeCol, 0);
        }
      }
      const rows = [];
      const pinned = start > 0 && items[start].kind !== 'group' ? items[start].groupItem : -1;
      const above = pinned >= 0 ? start - 1 : start;
      if (above > 0) rows.push(spacer(above * pitch));
      if (pinned >= 0) rows.push(rowOf(pinned));
      for (let i = start; i < end; i += 1) rows.push(rowOf(i));
      if (end < items.length) rows.push(spacer((items.length - end) * pitch));
      tbody.replaceChildren(...rows);
      if (focused && focused.classList.contains('cell-button')) buttonAt(Number(focused.dataset.pos), Number(focused.dataset.col))?.focus({ preventScroll: true });
    }
    const buttonAt = (pos, col) => tbody.querySelector(`button.cell-button[data-pos="${pos}"][data-col="${col}"]`);
    /** Renders the rows the viewport needs (always with `force`; otherwise only when it has moved past them). */
    function update(force) {
      if (items.length === 0 || !tbody.isConnected) return;
      const head = `${thead.getBoundingClientRect().height}px`;
      if (table.style.getPropertyValue('--grid-head') !== head) table.style.setProperty('--grid-head', head);
      const top = tbody.getBoundingClientRect().top;
      const first = Math.min(items.length - 1, Math.max(0, Math.floor(-top / pitch)));
      const last = Math.max(first + 1, Math.min(items.length, Math.ceil((window.innerHeight - top) / pitch)));
      if (!force && first >= start && last <= end) return;
      start = Math.max(0, first - GRID_OVERSCAN);
      end = Math.min(items.length, last + GRID_OVERSCAN);
      draw();
    }
    function setActive(pos, col) {
      for (const b of tbody.querySelectorAll('button.cell-button[tabindex="0"]')) b.tabIndex = -1;
      activePos = pos;
      activeCol = col;
      const button = buttonAt(pos, col);
      if (button) button.tabIndex = 0;
      return button;
    }
    /** Moves focus to task `pos` (clamped), column `col` or the nearest one with a cell, scrolling it into view. */
    function focusCell(pos, col, step) {
      const to = Math.max(0, Math.min(taskItems.length - 1, pos));
      const c = nearestCol(to, Math.max(0, Math.min(strategies.length - 1, col)), step);
      const rowTop = tbody.getBoundingClientRect().top + taskItems[to] * pitch;
      const covered = thead.getBoundingClientRect().height + pitch;
      if (rowTop < covered) window.scrollBy(0, rowTop - covered);
      else if (rowTop + pitch > window.innerHeight) window.scrollBy(0, rowTop + pitch - window.innerHeight);
      update(false);
      setActive(to, c)?.focus({ preventScroll: true });
    }
    function onKey(event) {
      const button = event.target.closest ? event.target.closest('button.cell-button') : null;
      if (!button) return;
      const pos = Number(button.dataset.pos);
      const col = Number(button.dataset.col);
      const page = Math.max(1, Math.floor(window.innerHeight / pitch) - 4);
      const last = strategies.length - 1;
      const moves = {
        ArrowDown: [pos + 1, col, 0],
        ArrowUp: [pos - 1, col, 0],
        ArrowRight: [pos, col + 1, 1],
        ArrowLeft: [pos, col - 1, -1],
        PageDown: [pos + page, col, 0],
        PageUp: [pos - page, col, 0],
        Home: event.ctrlKey ? [0, 0, 1] : [pos, 0, 1],
        End: event.ctrlKey ? [taskItems.length - 1, last, -1] : [pos, last, -1],
      };
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      focusCell(...move);
    }
    function onFocus(event) {
      const button = event.target;
      if (button.classList && button.classList.contains('cell-button')) setActive(Number(button.dataset.pos), Number(button.dataset.col));
    }
    /** Once in the page: measures the header and row pitch, scrolls (to the top, the open cell, or not at all), gives focus back. */
    function mounted({ keepScroll, focus, openPos }) {
      if (!table.isConnected) return;
      const rendered = [...tbody.children].filter((tr) => !tr.classList.contains('spacer'));
      if (rendered.length >= 2) {
        const measured = (rendered[rendered.length - 1].getBoundingClientRect().top - rendered[0].getBoundingClientRect().top) / (rendered.length - 1);
        if (measured > 0) pitch = measured;
      }
      if (!keepScroll) {
        if (openPos !== null) window.scrollTo(0, tbody.getBoundingClientRect().top + window.scrollY + taskItems[openPos] * pitch - window.innerHeight / 3);
        else window.scrollTo(0, 0);
      }
      update(true);
      if (!focus) return;
      if (focus.key) {
        const el = table.closest('main')?.querySelector(`[data-focus-key="${focus.key}"]`);
        el?.focus({ preventScroll: true });
        if (el && focus.caret !== null && typeof el.setSelectionRange === 'function') el.setSelectionRange(focus.caret, focus.caret);
      } else if (focus.cell) {
        const button = tbody.querySelector(`td[data-key="${CSS.escape(focus.cell)}"] button`);
        if (button) setActive(Number(button.dataset.pos), Number(button.dataset.col)).focus({ preventScroll: true });
      }
    }
    const posOf = (cell) => items.find((item) => item.kind === 'task' && item.t.task === cell.task)?.pos ?? null;

    if (items.length === 0) {
      tbody.append(h('tr', h('td.empty-note', { colspan: width }, 'No task matches these filters. ', h('a', { href: gridHref(side, {}) }, 'Clear them'))));
    } else {
      end = Math.min(items.length, Math.ceil(window.innerHeight / pitch) + GRID_OVERSCAN);
      draw();
    }
    return { table, tbody, update, mounted, posOf };
  }
