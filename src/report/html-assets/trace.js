// Trace viewer: one episode's checks, attribution, plans with their diffs, model calls and tool calls.
  // ---- trace viewer -------------------------------------------------------------------------------------------
  function checkLine(check) {
    const rest = Object.entries(check).filter(([k]) => k !== 'check').map(([k, v]) => `${k}=${oneLine(v)}`);
    return `${check.check}${rest.length ? ` ${rest.join(' ')}` : ''}`;
  }

  // ---- transcript parts: scrollable text, JSON trees, tool outputs formatted by kind --------------------------
  /** A <pre> that may scroll, so it takes keyboard focus (axe: scrollable-region-focusable) and is named by `label`. */
  function tracePre(content, label, cls) {
    return h(`pre${cls ? `.${cls}` : ''}`, { tabindex: 0, role: 'region', 'aria-label': label }, content);
  }
  const traceLines = (text) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));
  const traceCount = (n, word) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

  /** `{ value }` when `text` is a JSON object or array (parsed whole), else null: text that only looks like JSON stays text. */
  function traceJson(text) {
    const t = text.trim();
    if (!((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']')))) return null;
    try {
      return { value: JSON.parse(t) };
    } catch {
      return null;
    }
  }

  /** Strings longer than this (characters) or of more than TRACE_CLIP_LINES lines show clipped, with "show all". */
  const TRACE_CLIP_CHARS = 160;
  const TRACE_CLIP_LINES = 3;
  function traceStringValue(text) {
    const lines = text.split('\n');
    if (text.length <= TRACE_CLIP_CHARS && lines.length <= TRACE_CLIP_LINES) return h('span.json-string', JSON.stringify(text));
    const short = h('span.json-string', `${JSON.stringify(clip(lines.slice(0, TRACE_CLIP_LINES).join('\n'), TRACE_CLIP_CHARS)).slice(0, -1)}…`);
    // The whole string is built on first use: a role's view repeats every earlier output on every call.
    let full = null;
    const button = h('button.show-all', { type: 'button', 'aria-expanded': 'false' }, `show all (${traceCount(text.length, 'character')}, ${traceCount(lines.length, 'line')})`);
    button.addEventListener('click', () => {
      if (!full) {
        full = lines.length > 1 ? traceOutputPre(text, 'the whole string', traceOutputKind(text), false) : h('span.json-string', JSON.stringify(text));
        full.hidden = true;
        button.after(full);
      }
      const open = full.hidden;
      full.hidden = !open;
      short.hidden = open;
      button.setAttribute('aria-expanded', String(open));
      button.textContent = open ? 'show less' : `show all (${traceCount(text.length, 'character')}, ${traceCount(lines.length, 'line')})`;
    });
    return h('span.json-long', short, ' ', button);
  }

  function traceScalar(value) {
    if (typeof value === 'string') return traceStringValue(value);
    if (value === null) return h('span.json-null', 'null');
    return h(`span.json-${typeof value}`, String(value));
  }

  /** `{3 keys}` / `[2 items]`, and (shown while folded) the first few scalar entries. */
  function traceNodeSummary(value) {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    const count = Array.isArray(value) ? `[${traceCount(entries.length, 'item')}]` : `{${traceCount(entries.length, 'key')}}`;
    const scalars = entries.filter(([, v]) => v === null || typeof v !== 'object').slice(0, 3);
    const preview = scalars.map(([k, v]) => (Array.isArray(value) ? oneLine(v) : `${k}: ${oneLine(v)}`)).join(', ');
    return [h('span.json-count', count), preview ? h('span.json-preview', ` ${clip(preview, 90)}`) : null];
  }

  /** One entry of a JSON tree: a leaf, or a native <details> (keyboard-operable) per non-empty object or array. */
  function traceJsonNode(key, value, depth) {
    const label = key === null ? null : [h('span.json-key', String(key)), ': '];
    if (value === null || typeof value !== 'object' || Object.keys(value).length === 0) {
      const scalar = value !== null && typeof value === 'object' ? h('span.json-count', Array.isArray(value) ? '[]' : '{}') : traceScalar(value);
      return h('li.json-leaf', label, scalar);
    }
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    // Open: the root, and small nodes near it; the rest folded, with their counts and a preview in view.
    const open = depth === 0 || (depth === 1 && oneLine(value).length <= 200);
    return h(
      'li.json-node',
      h('details', { open }, h('summary', label, traceNodeSummary(value)), h('ul.json-children', entries.map(([k, v]) => traceJsonNode(k, v, depth + 1)))),
    );
  }

  /** A JSON value as an indented, collapsible tree; `bare`: an object's entries listed without a root fold (tool args). */
  function traceJsonTree(value, label, bare) {
    if (bare && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return h('ul.json-tree', { 'aria-label': label }, Object.entries(value).map(([k, v]) => traceJsonNode(k, v, 1)));
    }
    return h('ul.json-tree', { 'aria-label': label }, traceJsonNode(null, value, 0));
  }

  /** A reply or message that is JSON: the tree, with the raw text one click away. */
  function traceJsonWithRaw(parsed, text, label) {
    return [traceJsonTree(parsed.value, label), h('details.raw', h('summary', 'raw text'), tracePre(text, `${label}, raw text`))];
  }

  /**
   * A message's text: a JSON message as a tree; else its prose, with every fenced block (```info … ```) whose body is
   * JSON as a tree labelled by the fence's info string (the role's view: ```json state) and any other block as text.
   */
  function traceMessageContent(text, label) {
    const whole = traceJson(text);
    if (whole) return traceJsonWithRaw(whole, text, label);
    const parts = [];
    let at = 0;
    while (at < text.length) {
      const open = text.indexOf('```', at);
      const newline = open < 0 ? -1 : text.indexOf('\n', open);
      const close = newline < 0 ? -1 : text.indexOf('```', newline);
      if (close < 0) break;
      if (open > at) parts.push(h('div.prose', text.slice(at, open).trim()));
      const info = text.slice(open + 3, newline).trim();
      const body = text.slice(newline + 1, close);
      const parsed = traceJson(body);
      parts.push(
        parsed
          ? h('div.fenced', h('p.fence-info', info || 'JSON'), traceJsonWithRaw(parsed, body, `${label}: ${info || 'JSON'}`))
          : tracePre(body.replace(/\n$/, ''), `${label}: ${info || 'code'}`),
      );
      at = close + 3;
    }
    const rest = text.slice(at).trim();
    if (rest) parts.push(h('div.prose', rest));
    return parts.length ? parts : [h('p.hint', '(empty)')];
  }

  // Tool output kinds: the sandbox's vitest 4 default reporter (sim-repo/test-output.ts), ESLint's stylish format
  // (sim-repo/lint/format-stylish.ts), and other command output, whose error lines (pnpm, git, shell) are marked.
  function traceOutputKind(text) {
    if (/^> vitest\b|^ RUN {2}v\d|^ {0,6}Test Files {2}/m.test(text)) return 'test';
    if (/^> eslint\b|^✖ \d+ problems? \(|^ +\d+:\d+ +(error|warning) {2}/m.test(text)) return 'lint';
    return 'command';
  }

  /** Per-line classes of a test run: [kind, marker] (kinds: fail, error, pass, muted, expected, received, frame, summary-…). */
  function traceTestLine(line, state) {
    const t = line.trim();
    if (/^- Expected$/.test(line)) state.diff = true;
    if (/^❯ |^⎯/.test(t)) state.diff = false;
    if (state.diff && /^- /.test(line)) return ['expected', ''];
    if (state.diff && /^\+ /.test(line)) return ['received', ''];
    if (/^✓ /.test(t)) return ['pass', ''];
    if (/^↓ /.test(t)) return ['muted', 'skip'];
    if (/^× /.test(t) || /^FAIL\s/.test(t)) return ['fail', 'FAIL'];
    if (/^❯ .*\(.*\)$/.test(t)) return ['fail', 'FAIL'];
    if (/^→ /.test(t)) return ['fail-detail', ''];
    if (/^⎯+ Failed (Tests|Suites) \d+ ⎯+$/.test(t)) return ['fail-heading', ''];
    if (/^⎯+(\[\d+\/\d+\]⎯)?$/.test(t)) return ['muted', ''];
    if (/^([A-Z]\w*Error|Error)( \[\w+\])?: /.test(t)) return ['error', 'ERROR'];
    if (/^❯ \S+:\d+:\d+$/.test(t)) return ['location', ''];
    if (/^\d+\|/.test(t)) return ['frame', ''];
    if (/^\|\s*\^$/.test(t)) return ['caret', ''];
    if (/^(Test Files|Tests) {2}/.test(t)) return [/\bfailed\b/.test(t) ? 'summary-fail' : 'summary-pass', /\bfailed\b/.test(t) ? 'FAIL' : ''];
    if (/^(> |RUN {2}v)/.test(t)) return ['muted', ''];
    return ['', ''];
  }

  function traceCommandLine(line) {
    const t = line.trim();
    if (/^(ERR_\w+|npm ERR!|ELIFECYCLE|fatal:|error:|Error:|[A-Z]\w*Error:|Oops! Something went wrong)|: (command )?not found$|denied/.test(t)) return ['error', 'ERROR'];
    if (/^(warning|WARN)\b/i.test(t)) return ['warn', 'WARN'];
    return ['', ''];
  }

  /** One line of output as spans: a marker gutter (FAIL, ERROR, WARN — not copied) and the text; ESLint rows split into location, severity, message and rule. */
  function traceOutputLine(line, kind, state) {
    if (kind === 'lint') {
      const row = /^ +\d+:\d+ +(error|warning) {2}/.test(line) ? line.trim().split(/ {2,}/) : null;
      if (row && row.length >= 3) {
        const severity = row[1] === 'error' ? 'error' : 'warn';
        const rule = row.length >= 4 ? row[row.length - 1] : null;
        const message = row.slice(2, rule === null ? row.length : -1).join('  ');
        return h(`span.line.${severity}`, h('span.marker', severity === 'error' ? 'ERROR' : 'WARN'), '  ', h('span.loc', row[0]), '  ', h('span.severity', row[1]), '  ', h('span.message', message), rule ? ['  ', h('span.rule', rule)] : null);
      }
      const t = line.trim();
      const [cls, marker] = /^✖ \d+ problems? \((\d+) errors?/.test(t)
        ? [/^✖ \d+ problems? \(0 errors/.test(t) ? 'summary-warn' : 'summary-fail', 'FAIL']
        : /^\/|^[\w.@-]+\/\S+\.\w+$/.test(t)
          ? ['file', '']
          : /potentially fixable|^> eslint/.test(t)
            ? ['muted', '']
            : traceCommandLine(line);
      return h(`span.line${cls ? `.${cls}` : ''}`, h('span.marker', marker), line);
    }
    const [cls, marker] = kind === 'test' ? traceTestLine(line, state) : traceCommandLine(line);
    // vitest's rules (⎯ runs) drawn as a line too, for fonts without the glyph; the text stays as printed.
    const parts = kind === 'test' ? line.split(/(⎯+)/).map((part, i) => (i % 2 ? h('span.hr', part) : part)) : line;
    return h(`span.line${cls ? `.${cls}` : ''}`, h('span.marker', marker), parts);
  }

  /** The counts a test run or lint output ends with, shown above it: `Tests 1 failed (1) · Test Files 1 failed (1)`, `ESLint: 1 error, 0 warnings`. */
  function traceOutputSummary(text, kind, exitCode) {
    if (kind === 'test') {
      const found = ['Tests', 'Test Files'].flatMap((name) => {
        const match = new RegExp(`^ *${name} {2}(.+)$`, 'm').exec(text);
        return match ? [h(`span.count.${/\bfailed\b/.test(match[1]) ? 'fail' : 'pass'}`, `${name}: ${match[1]}`)] : [];
      });
      return h('p.output-summary', h('strong', 'vitest '), found.length ? found.map((f, i) => [i ? ' · ' : '', f]) : h('span.count.fail', 'no summary (the run did not finish)'));
    }
    if (kind === 'lint') {
      const match = /^✖ (\d+) problems? \((\d+) errors?, (\d+) warnings?\)/m.exec(text);
      const counts = match ? `${traceCount(Number(match[2]), 'error')}, ${traceCount(Number(match[3]), 'warning')}` : exitCode === 0 ? 'no problems' : 'no problem list';
      return h('p.output-summary', h('strong', 'ESLint '), h(`span.count.${match && match[2] !== '0' ? 'fail' : match ? 'warn' : exitCode === 0 ? 'pass' : 'fail'}`, counts));
    }
    return null;
  }

  /** Output text as a focusable <pre>; `format`: lines classified by kind (test, lint, command) or plain. */
  function traceOutputPre(text, label, kind, formatted) {
    if (!formatted && kind === 'command') return tracePre(text, label);
    const state = { diff: false };
    const lines = traceLines(text);
    return tracePre(
      lines.map((line, i) => [i ? '\n' : '', traceOutputLine(line, kind, state)]),
      label,
      `output.formatted.${kind}`,
    );
  }

  /** Outputs longer than this many lines fold, showing their first and last TRACE_PREVIEW_LINES lines. */
  const TRACE_FOLD_LINES = 25;
  const TRACE_PREVIEW_LINES = 8;

  /** A tool call's output: its counts (test run, lint), then the text — folded past TRACE_FOLD_LINES lines with its first and last lines in view. */
  function traceToolOutput(event) {
    const text = event.output;
    const lines = traceLines(text);
    if (lines.length === 0) return h('p.hint', '(no output)');
    const kind = traceOutputKind(text);
    const formatted = kind !== 'command' || event.tool === 'run' || event.status !== 'success';
    const label = `output of ${event.tool}${event.args.cmd ? ` ${event.args.cmd}` : event.args.path ? ` ${event.args.path}` : ''} (event ${event.id})`;
    const summary = traceOutputSummary(text, kind, event.exit_code);
    if (lines.length <= TRACE_FOLD_LINES) return h('div.output', summary, traceOutputPre(text, label, kind, formatted));
    const hidden = lines.length - 2 * TRACE_PREVIEW_LINES;
    const head = lines.slice(0, TRACE_PREVIEW_LINES).join('\n');
    const tail = lines.slice(-TRACE_PREVIEW_LINES).join('\n');
    const preview = h('div.preview', traceOutputPre(head, `${label}, first lines`, kind, formatted), h('p.elided', `… ${traceCount(hidden, 'line')} not shown …`), traceOutputPre(tail, `${label}, last lines`, kind, formatted));
    return h(
      'div.output.folded',
      summary,
      preview,
      h('details.output-full', h('summary', `show all ${traceCount(lines.length, 'line')}${event.exit_code !== undefined ? ` · exit ${event.exit_code}` : ''}`), traceOutputPre(text, label, kind, formatted)),
    );
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
      event.invalidated ? h('p', 'invalidated: ', h('q', event.invalidated)) : null,
      event.answers !== undefined ? h('p', 'answers ', link(event.answers, `event #${event.answers}`)) : null,
      diff ? h('p.diff-summary', `diff: ${diff.added.length} added, ${diff.removed.length} removed, ${diff.revised.length} revised`) : null,
      h('p', 'goal: ', plan.goal),
      h('p', 'done_when: ', plan.done_when.length ? plan.done_when.map(checkLine).join(' · ') : '(none)'),
      plan.assumptions.length ? h('p', 'assumptions: ', plan.assumptions.map((a) => `“${a}”`).join(' · ')) : null,
      h('ol.steps', steps),
    ]);
  }

  /** One chat bubble: its role in text, then its content. */
  function traceBubble(role, label, ...content) {
    return h(`div.bubble.${role}`, h('p.bubble-role', label), ...content);
  }

  /**
   * A model call as a chat: the messages the role was sent, in order (the system prompt folded, with its first line and
   * length; JSON as trees), then the reply as the assistant's bubble with its thinking folded.
   */
  function traceChat(event, texts, source) {
    const bubbles = [];
    if (!event.sent) {
      bubbles.push(h('p.hint', 'No messages stored for this call (the scripted stand-in reads the role’s view and is sent none; real models’ messages are kept in messages.jsonl).'));
    } else {
      const options = Object.entries(event.sent.options).map(([k, v]) => `${k} ${v}`).join(', ');
      bubbles.push(h('p.hint.sent', `${traceCount(event.sent.messages.length, 'message')} sent to the ${event.role}${options ? ` · ${options}` : ''}`));
      event.sent.messages.forEach((hash, i) => {
        const stored = texts[hash];
        if (!stored) {
          bubbles.push(h('p.hint', `[message ${i + 1} (${hash}) is not in this report${source.messages_stored ? '' : ': the results folder has no messages.jsonl'}]`));
          return;
        }
        const label = `${stored.role} message ${i + 1} of call #${event.id}`;
        if (stored.role === 'system') {
          const first = stored.content.split('\n').find((line) => line.trim() !== '') ?? '';
          bubbles.push(
            h('details.bubble.system', h('summary', h('span.bubble-role', 'system'), ' ', h('span.first-line', clip(first, 140)), h('span.length', ` · ${traceCount(stored.content.length, 'character')}`)), tracePre(stored.content, label)),
          );
        } else bubbles.push(traceBubble(stored.role, stored.role, traceMessageContent(stored.content, label)));
      });
    }
    const thinking = event.thinking
      ? h(
          'details.thinking',
          h('summary', texts[event.thinking] ? `thinking (${traceCount(traceLines(texts[event.thinking].content).length, 'line')})` : 'thinking (not in this report)'),
          texts[event.thinking] ? tracePre(texts[event.thinking].content, `thinking of call #${event.id}`) : null,
        )
      : null;
    const parsed = traceJson(event.text);
    const replyLabel = `reply of call #${event.id}`;
    const reply = event.text === '' ? h('p.hint', '(empty reply)') : parsed ? traceJsonWithRaw(parsed, event.text, replyLabel) : tracePre(event.text, replyLabel, 'reply-text');
    bubbles.push(h('div.bubble.assistant.reply', h('p.bubble-role', `assistant · reply${event.outcome === 'ok' ? '' : ` (${event.outcome})`}`), thinking, reply));
    return h('div.chat', bubbles);
  }

  function traceToolHead(event, link) {
    const lines = traceLines(event.output).length;
    return [
      h('strong', `tool call · ${event.tool}`),
      event.step_id ? ` · step ${event.step_id}` : '',
      ' · ',
      h(`span.${event.status === 'success' ? 'ok' : 'bad'}`, event.status),
      event.exit_code !== undefined ? [' · ', h(`span.exit.${event.exit_code === 0 ? 'ok' : 'bad'}`, `exit ${event.exit_code}`)] : '',
      event.error_code ? ` · ${event.error_code}` : '',
      ` · ${traceCount(lines, 'line')} · ${event.duration_ms} ms`,
      event.side_effect !== 'none' ? ` · side effect ${event.side_effect}` : '',
      event.call !== undefined ? [' · chosen by ', link(event.call, `call #${event.call}`)] : '',
      event.plan !== undefined ? [' · plan ', link(event.plan, `#${event.plan}`)] : '',
    ];
  }

  /** An event's one-line head (its facts) and its body. */
  function eventParts(event, context) {
    const { link, texts, source, trace, finalStatus } = context;
    const head = (...parts) => h('p.event-head', ...parts);
    switch (event.type) {
      case 'model_call':
        return {
          head: head(h('strong', `model call · ${event.role}`), ` · ${event.model} · attempt ${event.attempt} · `, h(`span.${event.outcome === 'ok' ? 'ok' : 'bad'}`, event.outcome), ` · ${event.tokens_in}+${event.tokens_out} tokens · ${event.duration_ms} ms${event.cached ? ' · cached' : ''}${event.cold_load ? ` · cold load ${event.load_ms} ms` : ''}`),
          body: [
            event.error ? h('p.bad', event.error) : null,
            event.output_fault ? h('p.bad', `output fault ${event.output_fault.kind}: ${event.output_fault.detail}`) : null,
            event.format_warnings?.length ? h('p.hint', `format warnings: ${event.format_warnings.join('; ')}`) : null,
            traceChat(event, texts, source),
          ],
        };
      case 'tool_call':
        return {
          head: head(traceToolHead(event, link)),
          body: [Object.keys(event.args).length ? traceJsonTree(event.args, `arguments of ${event.tool} (event ${event.id})`, true) : null, traceToolOutput(event)],
        };
      case 'plan':
      case 'plan_revision': {
        const previous = [...trace].reverse().find((e) => e.id < event.id && (e.type === 'plan' || e.type === 'plan_revision'));
        const diffEvent = trace.find((e) => e.type === 'plan_diff' && e.revision === event.revision && e.id > event.id);
        return {
          head: head(h('strong', event.type === 'plan' ? 'Plan' : `Revision ${event.revision}`), event.call !== undefined ? [' by ', link(event.call, `call #${event.call}`)] : null),
          body: [planView(event, previous, event.type === 'plan' ? null : diffEvent?.diff ?? null, finalStatus, link)],
        };
      }
      case 'plan_diff':
        return { head: head(h('strong', `plan diff · revision ${event.revision}`), ` · added ${event.diff.added.join(', ') || '—'} · removed ${event.diff.removed.join(', ') || '—'} · revised ${event.diff.revised.join(', ') || '—'}`), body: [] };
      case 'plan_invalid':
        return { head: head(h('strong', 'plan invalid')), body: [h('ul', event.errors.map((e) => h('li', e)))] };
      case 'step_end':
        return { head: head(h('strong', `step ${event.step_id}`), ' ', h(`span.status.${event.status}`, event.status), event.reason ? ` · ${event.reason}` : ''), body: [] };
      case 'check':
        return { head: head(h('strong', `check (${event.scope})`), ' ', h(`span.${event.pass ? 'ok' : 'bad'}`, event.pass ? 'pass' : 'fail'), ` · ${checkLine(event.check)}`), body: [h('p', event.detail)] };
      case 'gate':
        return { head: head(h('strong', 'gate'), ` → ${event.route}`), body: [] };
      case 'budget':
        return { head: head(h('strong', `budget · ${event.limit}`), ` · ${event.detail}`), body: [] };
      case 'end':
        return {
          head: head(h('strong', 'end'), ` · ${event.status} (${event.reason})`),
          body: [event.answer ? h('p', 'answer: ', h('q', event.answer)) : null, event.message ? h('p', 'message: ', h('q', event.message)) : null],
        };
      default:
        return { head: head(h('strong', event.type)), body: [tracePre(json(event), `event ${event.id}`)] };
    }
  }

  function findSource(side) {
    return kind === 'compare' ? payload[side === 'base' ? 'base' : 'head'] : payload;
  }

  /**
   * One section per trace event of an episode (class `event TYPE`, id `PREFIXevent-ID` — idPrefix keeps two traces on
   * one page (the compare page's side by side) from sharing ids —, data-event ID; data-step STEP on
   * events of a plan step), evidence marked. Used by the episode view and the compare view's side-by-side traces.
   */
  function traceSections(side, row, detail, source, idPrefix = '') {
    const evidence = new Set(row.evidence);
    const finalStatus = new Map();
    for (const e of detail.trace) if (e.type === 'step_end') finalStatus.set(e.step_id, e.status);
    const link = (id, label) => h('a', { href: episodeHash(side, row, id) }, label);
    const context = { link, texts: detail.texts, source, trace: detail.trace, finalStatus };
    return detail.trace.map((event) =>
      h(
        'section',
        { class: `event ${event.type}${evidence.has(event.id) ? ' attributed' : ''}${event.id === row.evidence[0] ? ' first-error' : ''}`, id: `${idPrefix}event-${event.id}`, 'data-event': event.id, 'data-step': event.step_id ?? null },
        (({ head, body }) => [
          h('div.event-bar', head, h('span.event-meta', h('span.time', `${event.t_ms} ms`), ' ', h('a.permalink', { href: episodeHash(side, row, event.id), title: 'permalink to this event' }, `#${event.id}`))),
          evidence.has(event.id) ? h('p.attributed-note', `${event.id === row.evidence[0] ? 'first erroneous event' : 'evidence'} for ${row.attribution}: ${row.explanation}`) : null,
          body,
        ])(eventParts(event, context)),
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

