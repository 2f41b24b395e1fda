// Full-text search (#search?q=TEXT): every episode row's task id, group, family, fixture, attribution, explanation and
// failing check at once, then the inlined details' answers, messages, tool calls and model replies, decoded once.
  // ---- search -----------------------------------------------------------------------------------------------------
  /** The search route of a side ('base' | 'head' | null) for the text `q` ('' for the empty search page). */
  function searchHref(side, q) {
    return `#${side ? `${side}/` : ''}search${q ? `?${new URLSearchParams({ q })}` : ''}`;
  }

  /** Episodes listed at most (the count says how many matched). */
  const SEARCH_LIMIT = 200;
  /** Matches shown per episode (the rest counted). */
  const SEARCH_HITS_SHOWN = 3;
  /** The row fields searched without decoding anything: [field, label]. */
  const SEARCH_ROW_FIELDS = [['task', 'task'], ['group', 'group'], ['family', 'family'], ['fixture', 'fixture'], ['attribution', 'attribution'], ['explanation', 'explanation'], ['failing', 'failing check']];
  /** Per side: { texts: Map(detail index → searchable texts), done, total, failed, promise, onProgress }, built on the first search. */
  const searchCorpora = new Map();
  let searchRun = 0;

  /** A case-insensitive pattern for the literal text `q` (no operators: what is typed is what is found). */
  const searchPattern = (q) => new RegExp(q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');

  /** The match in `text` with up to 60 characters either side, whitespace squashed, the match in <mark>. */
  function searchSnippet(text, pattern) {
    const m = pattern.exec(text);
    if (!m) return null;
    const from = Math.max(0, m.index - 60);
    const to = Math.min(text.length, m.index + m[0].length + 60);
    const squash = (s) => s.replace(/\s+/g, ' ');
    return h('span.snippet', from > 0 ? '…' : '', squash(text.slice(from, m.index)), h('mark', m[0]), squash(text.slice(m.index + m[0].length, to)), to < text.length ? '…' : '');
  }

  /**
   * The searchable texts of one decoded detail, as [{ field, event (trace event id or null), text }]: the answer and
   * stop message, every tool call's arguments and output, every model call's reply, thinking and the messages it was sent.
   */
  function detailTexts(detail) {
    const out = [];
    if (detail.outcome.answer) out.push({ field: 'answer', event: null, text: detail.outcome.answer });
    if (detail.outcome.message) out.push({ field: 'stop message', event: null, text: detail.outcome.message });
    for (const e of detail.trace) {
      if (e.type === 'tool_call') {
        out.push({ field: `${e.tool} output`, event: e.id, text: e.output });
        out.push({ field: `${e.tool} arguments`, event: e.id, text: JSON.stringify(e.args) });
      } else if (e.type === 'model_call') {
        if (e.text) out.push({ field: `${e.role} reply`, event: e.id, text: e.text });
        if (e.thinking && detail.texts[e.thinking]) out.push({ field: `${e.role} thinking`, event: e.id, text: detail.texts[e.thinking].content });
        for (const hash of e.sent?.messages ?? []) {
          const stored = detail.texts[hash];
          if (stored) out.push({ field: `${stored.role} message to the ${e.role}`, event: e.id, text: stored.content });
        }
      }
    }
    return out;
  }

  /** Decodes every inlined detail of a side once (64 at a time, yielding between batches), reporting progress. */
  function searchCorpusOf(source, side) {
    const key = side ?? 'run';
    if (searchCorpora.has(key)) return searchCorpora.get(key);
    const firstRow = new Map();
    for (const row of source.episodes) if (row.detail !== null && !firstRow.has(row.detail)) firstRow.set(row.detail, row);
    const corpus = { texts: new Map(), done: 0, total: firstRow.size, failed: 0, onProgress: null, promise: null };
    corpus.promise = (async () => {
      const entries = [...firstRow.entries()];
      for (let at = 0; at < entries.length; at += 64) {
        await Promise.all(
          entries.slice(at, at + 64).map(([index, row]) =>
            episodeDetail(side, row).then(
              (detail) => corpus.texts.set(index, detail ? detailTexts(detail) : []),
              () => {
                corpus.failed += 1;
                corpus.texts.set(index, []);
              },
            ),
          ),
        );
        corpus.done = Math.min(entries.length, at + 64);
        if (corpus.onProgress) corpus.onProgress();
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      return corpus;
    })();
    searchCorpora.set(key, corpus);
    return corpus;
  }

  /** One matching episode: its link, verdict, and its first matches with their snippets (trace matches link to the event). */
  function searchResult(side, row, hits, pattern) {
    const verdict = row.success ? 'pass' : row.status === 'error' ? 'error' : 'fail';
    return h(
      'li',
      { 'data-task': row.task, 'data-strategy': row.strategy, 'data-epoch': row.epoch },
      h('a.episode-link', { href: episodeHash(side, row) }, `${row.task} × ${row.strategy} · epoch ${row.epoch}`),
      h(`span.verdict.${row.success ? 'ok' : 'bad'}`, verdict),
      hits.slice(0, SEARCH_HITS_SHOWN).map((hit) =>
        h('p.hit', hit.event === null ? h('span.field', hit.field) : h('a.field', { href: episodeHash(side, row, hit.event) }, `${hit.field} · event #${hit.event}`), searchSnippet(hit.text, pattern)),
      ),
      hits.length > SEARCH_HITS_SHOWN ? h('p.hint', `+${hits.length - SEARCH_HITS_SHOWN} more match(es) in this episode`) : null,
    );
  }

  /**
   * The search view of a source (side as in grid()): the row fields' matches at once, then — as the inlined details are
   * decoded (once per page) — the traces' matches, with a note of how many episodes' traces were searched.
   */
  function searchView(source, side, route = parseHash()) {
    const q = (route.params.get('q') ?? '').trim();
    const run = ++searchRun;
    const input = h('input#search-input', { type: 'search', name: 'q', value: q, 'data-focus-key': 'search-q', autocomplete: 'off' });
    const form = h(
      'form#search-form',
      {
        role: 'search',
        onsubmit: (event) => {
          event.preventDefault();
          gridNavigate(searchHref(side, input.value.trim()));
        },
      },
      h('label', { for: 'search-input' }, 'Search tasks, answers, messages and outputs'),
      input,
      h('button', { type: 'submit' }, 'Search'),
    );
    const count = h('p#search-count', { role: 'status' });
    const progress = h('p.hint#search-progress', { 'aria-live': 'polite' });
    const list = h('ol#search-results');
    const main = h('main.search-view', [
      h('h2', 'Search'),
      form,
      h('p.hint', 'Finds the text as typed, ignoring case: task ids, groups, families, attributions and failing checks at once; answers, messages, tool calls and model replies in the traces this file holds.'),
      count,
      progress,
      list,
      q ? h('p', h('a', { href: gridHref(side, { q }) }, `the grid of the tasks whose ids, attributions or failing checks contain “${clip(q, 40)}”`)) : null,
    ]);
    if (!q) {
      count.textContent = 'Type a word or phrase and press Enter.';
      return main;
    }
    const pattern = searchPattern(q);
    const rows = source.episodes;
    const hits = new Map();
    const add = (i, entries) => {
      if (entries.length === 0) return;
      if (!hits.has(i)) hits.set(i, []);
      hits.get(i).push(...entries);
    };
    rows.forEach((row, i) => add(i, SEARCH_ROW_FIELDS.filter(([key]) => row[key] && pattern.test(row[key])).map(([key, field]) => ({ field, event: null, text: row[key] }))));
    const show = () => {
      const matched = [...hits.keys()].sort((a, b) => a - b);
      count.textContent = `${matched.length} episode(s) match “${q}”${matched.length > SEARCH_LIMIT ? `; the first ${SEARCH_LIMIT} are listed` : ''}`;
      list.replaceChildren(...matched.slice(0, SEARCH_LIMIT).map((i) => searchResult(side, rows[i], hits.get(i), pattern)));
    };
    show();
    const inlined = rows.filter((row) => row.detail !== null).length;
    const corpus = searchCorpusOf(source, side);
    const live = () => run === searchRun;
    corpus.onProgress = () => {
      if (live()) progress.textContent = `decoding the traces: ${corpus.done} of ${corpus.total} details…`;
    };
    progress.textContent = corpus.done === corpus.total ? '' : `decoding the traces: ${corpus.done} of ${corpus.total} details…`;
    corpus.promise.then(() => {
      if (!live()) return;
      const byDetail = new Map();
      rows.forEach((row, i) => {
        if (row.detail === null) return;
        if (!byDetail.has(row.detail)) byDetail.set(row.detail, (corpus.texts.get(row.detail) ?? []).filter((entry) => pattern.test(entry.text)));
        add(i, byDetail.get(row.detail));
      });
      show();
      const failed = corpus.failed ? ` (${corpus.failed} could not be decoded)` : '';
      progress.textContent =
        inlined === rows.length
          ? `Searched the traces of all ${rows.length} episodes${failed}.`
          : `Searched the traces of ${inlined} of ${rows.length} episodes${failed}; the others’ traces are not in this file (\`stratbench explain DIR TASK STRATEGY --epoch N\` prints one).`;
    });
    return main;
  }
