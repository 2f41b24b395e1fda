// Trace viewer: one episode's checks, attribution, plans with their diffs, model calls and tool calls.
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

  /**
   * One section per trace event of an episode (class `event TYPE`, id `event-ID`, data-event ID; data-step STEP on
   * events of a plan step), evidence marked. Used by the episode view and the compare view's side-by-side traces.
   */
  function traceSections(side, row, detail, source) {
    const evidence = new Set(row.evidence);
    const finalStatus = new Map();
    for (const e of detail.trace) if (e.type === 'step_end') finalStatus.set(e.step_id, e.status);
    const link = (id, label) => h('a', { href: episodeHash(side, row, id) }, label);
    const context = { link, texts: detail.texts, source, trace: detail.trace, finalStatus };
    return detail.trace.map((event) =>
      h(
        'section',
        { class: `event ${event.type}${evidence.has(event.id) ? ' attributed' : ''}${event.id === row.evidence[0] ? ' first-error' : ''}`, id: `event-${event.id}`, 'data-event': event.id, 'data-step': event.step_id ?? null },
        h('a.permalink', { href: episodeHash(side, row, event.id), title: 'permalink to this event' }, `#${event.id}`),
        h('span.time', `${event.t_ms} ms`),
        evidence.has(event.id) ? h('p.attributed-note', `${event.id === row.evidence[0] ? 'first erroneous event' : 'evidence'} for ${row.attribution}: ${row.explanation}`) : null,
        eventBody(event, context),
      ),
    );
  }

  async function episodeView(route) {
    const source = findSource(route.side);
    const side = route.side;
    const row = source.episodes.find((r) => r.task === route.task && r.strategy === route.strategy && r.epoch === route.epoch);
    if (!row) return h('main', h('p.problem', `No episode ${route.task} × ${route.strategy} epoch ${route.epoch} in this report.`));
    const siblings = source.episodes.filter((r) => r.task === row.task && r.strategy === row.strategy);
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
    const detail = await episodeDetail(side, row);
    if (detail === null) return h('main.episode', [...headerPart, traceUnavailable(side, row)]);
    const events = traceSections(side, row, detail, source);
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

