// The exports (issue 13 §4): one CSV row per episode and one Harbor trial folder of ATIF trajectories per episode, from
// a real scripted run of the core suite and from hand-written folders (error episodes), with their failure paths
// (tests/atif-harbor.test.ts: the ATIF mapping, every built-in strategy read back by Harbor's validator).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvParseRows } from 'd3';
import { beforeAll, describe, expect, it } from 'vitest';
import { EpisodeRecord } from '../src/records/index.js';
import { CSV_COLUMNS, csvLine, episodeCsvValues, neutraliseCell } from '../src/report/formats/episodes-csv.js';
import { readHarborTrial } from './harbor-atif-models.js';
import { loadSuiteFile } from '../src/suite/load-suite.js';
import { scratch, stratbench } from './support/cli.js';
import { episodeRecord, runFile } from './support/results-files.js';

/** Parses CSV text with d3-dsv (a real parser), dropping the empty line after the last CRLF. */
const parseCsv = (text: string): string[][] => csvParseRows(text.replace(/\r\n$/, ''));
const records = (dir: string): EpisodeRecord[] =>
  readFileSync(join(dir, 'episodes.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => EpisodeRecord.parse(JSON.parse(line)));
/** A text cell as a spreadsheet user reads it back: neutralised text keeps its apostrophe. */
const cell = (value: string | number | undefined | null): string =>
  value === undefined || value === null ? '' : typeof value === 'number' ? String(value) : neutraliseCell(value);

describe('CSV cells', () => {
  it('quotes commas, quotes and line breaks (RFC 4180) and neutralises formula starts (OWASP), and parses back', () => {
    const cells = ['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\rlf', '=SUM(A1:A9)', '+1', '-2 items', '@cmd', '\tindent', '\rreturn', 'x=1', -3, 0.5];
    const line = csvLine(cells);
    expect(line.endsWith('\r\n')).toBe(true);
    // A plain number written as text ('+1') is data: no apostrophe; '-2 items' could start a formula: neutralised.
    expect(line).toBe(`plain,"a,b","say ""hi""","two\nlines","cr\rlf",'=SUM(A1:A9),+1,'-2 items,'@cmd,'\tindent,"'\rreturn",x=1,-3,0.5\r\n`);
    expect(parseCsv(line)).toEqual([
      ['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\rlf', "'=SUM(A1:A9)", '+1', "'-2 items", "'@cmd", "'\tindent", "'\rreturn", 'x=1', '-3', '0.5'],
    ]);
    const cellsAsWritten = ['-1', '-0.5', '+2e3', '.5', '-1-1', '-1+A1', '-', '+-1'].map(neutraliseCell);
    expect(cellsAsWritten).toEqual(['-1', '-0.5', '+2e3', '.5', "'-1-1", "'-1+A1", "'-", "'+-1"]);
  });

  it('names the infrastructure kind of an error episode (success 0, not a failure) and leaves attribution empty', () => {
    const record = episodeRecord('t', {
      outcome: { status: 'error', reason: 'infrastructure:unreachable', message: 'connect ECONNREFUSED 127.0.0.1:11434' },
      success: false,
    });
    const values = episodeCsvValues(record, { dir: 'results/x' });
    expect(values).toMatchObject({ status: 'error', success: 0, error: 'unreachable', attribution_component: '', fixture: '', counterfactual: '' });
    expect(values.trace).toBe('stratbench explain results/x t direct --epoch 0');
    const harness = episodeCsvValues(episodeRecord('t', { outcome: { status: 'error', reason: 'harness_error' }, success: false }), { dir: 'my results' });
    expect([harness.error, harness.trace]).toEqual(['harness_error', "stratbench explain 'my results' t direct --epoch 0"]);
  });
});

describe('exports of a real core-suite run (scripted model, --counterfactual)', () => {
  let dir: string;
  let list: EpisodeRecord[];
  let verdicts: Array<{ task: string; strategy: string; epoch: number; counterfactual: string | null; agrees: boolean | null }>;

  beforeAll(() => {
    dir = join(scratch(), 'run');
    const run = stratbench([
      'run',
      '--suite',
      'tasks/core.yaml',
      '--strategies',
      'direct,plan-up-front,plan-replan',
      '--out',
      dir,
      '--no-progress',
      '--counterfactual',
    ]);
    expect(run.status, run.stderr).toBe(0);
    list = records(dir);
    // run --counterfactual keeps each failed episode's replay in its record.
    verdicts = list.flatMap((record) =>
      record.counterfactual
        ? [
            {
              task: record.task,
              strategy: record.strategy,
              epoch: record.epoch,
              counterfactual: record.counterfactual.component,
              agrees: record.counterfactual.agrees_with_rules,
            },
          ]
        : [],
    );
    expect(verdicts.length).toBeGreaterThan(0);
  });

  it('report --csv writes a header and one row per episode whose values equal the records', () => {
    const file = join(scratch(), 'out', 'episodes.csv');
    const result = stratbench(['report', dir, '--csv', file]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('Strategy'); // the tables still print
    const [header, ...rows] = parseCsv(readFileSync(file, 'utf8'));
    expect(header).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(list.length);
    expect(list.length).toBe(42);
    const at = (row: string[], column: (typeof CSV_COLUMNS)[number]) => row[CSV_COLUMNS.indexOf(column)];
    rows.forEach((row, index) => {
      const record = list[index]!;
      expect(row).toHaveLength(CSV_COLUMNS.length);
      const verdict = verdicts.find((v) => v.task === record.task && v.strategy === record.strategy && v.epoch === record.epoch);
      expect({
        key: at(row, 'key'),
        task: at(row, 'task'),
        group: at(row, 'group'),
        fixture: at(row, 'fixture'),
        strategy: at(row, 'strategy'),
        epoch: at(row, 'epoch'),
        status: at(row, 'status'),
        success: at(row, 'success'),
        tool_calls: at(row, 'tool_calls'),
        tokens_in: at(row, 'tokens_in'),
        tool_ms: at(row, 'tool_ms'),
        replans: at(row, 'replans'),
        model_calls: at(row, 'model_calls'),
        component: at(row, 'attribution_component'),
        mode: at(row, 'attribution_mode'),
        first: at(row, 'attribution_first_event'),
        explanation: at(row, 'attribution_explanation'),
        counterfactual: at(row, 'counterfactual'),
        answer: at(row, 'answer'),
      }).toEqual({
        key: cell(record.key),
        task: record.task,
        group: record.group,
        fixture: 'shop',
        strategy: record.strategy,
        epoch: String(record.epoch),
        status: record.outcome.status,
        success: record.success ? '1' : '0',
        tool_calls: String(record.metrics.tool_calls),
        tokens_in: String(record.metrics.tokens_in),
        tool_ms: String(record.metrics.tool_ms),
        replans: String(record.metrics.replans),
        model_calls: String(Object.values(record.metrics.model_calls).reduce((a, b) => a + b, 0)),
        component: cell(record.attribution?.component),
        mode: cell(record.attribution?.mode),
        first: cell(record.attribution?.evidence[0]),
        explanation: cell(record.attribution?.explanation),
        counterfactual: verdict ? (verdict.counterfactual ?? 'none') : '',
        answer: cell(record.outcome.answer),
      });
    });
    const failed = rows.filter((row) => at(row, 'success') === '0');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((row) => at(row, 'attribution_component') !== '')).toBe(true);
    expect(rows.filter((row) => at(row, 'counterfactual') !== '')).toHaveLength(verdicts.length);
  });

  it('report --csv - prints only the CSV, byte for byte what export --format csv writes', () => {
    const stdout = stratbench(['report', dir, '--csv', '-']);
    expect(stdout.status, stdout.stderr).toBe(0);
    const file = join(scratch(), 'episodes.csv');
    const exported = stratbench(['export', dir, '--format', 'csv', '--out', file]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(`wrote ${list.length} episode row(s) to ${file}`);
    expect(stdout.stdout).toBe(readFileSync(file, 'utf8'));
    expect(stdout.stdout.startsWith('key,task,group,family,fixture,')).toBe(true);
    const both = stratbench(['report', dir, '--csv', '-', '--json']);
    expect([both.status, both.stdout]).toEqual([2, '']);
    expect(both.stderr).toContain('--csv - prints only the CSV on stdout, so --json has nowhere to go');
    const markdown = stratbench(['report', dir, '--markdown', '-']);
    expect(markdown.status, markdown.stderr).toBe(0);
    expect(markdown.stdout.startsWith('## ')).toBe(true);
    // The costs, and the failed episodes with their attribution (a CI step summary reads them there, issue 29 §5).
    expect(markdown.stdout).toContain('| overall | errors | model calls | tool calls | tokens in | tokens out | model ms |');
    const failures = list.filter((record) => !record.success && record.outcome.status !== 'error');
    expect(markdown.stdout).toContain(`### Failed episodes (${failures.length})`);
    const first = failures[0]!;
    expect(markdown.stdout).toContain(
      `| ${first.strategy} | ${first.task} | ${first.epoch} | ${first.outcome.status}/${first.outcome.reason} | ${first.attribution!.component}.${first.attribution!.mode} |`,
    );
    expect(existsSync('-')).toBe(false);
    const clash = stratbench(['report', dir, '--csv', '-', '--markdown', '-']);
    expect([clash.status, clash.stdout]).toEqual([2, '']);
    expect(clash.stderr).toContain('--csv - and --markdown - would all print on stdout');
  });

  it('export --format atif writes one Harbor trial folder per episode; a failed one carries its attribution and plan', async () => {
    const out = join(scratch(), 'atif');
    const result = stratbench(['export', dir, '--format', 'atif', '--out', out]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      new RegExp(`wrote ${list.length} trial folder\\(s\\) with \\d+ ATIF trajectory file\\(s\\) to ${out} \\(<trial>/agent/trajectory.json\\)`),
    );
    expect(readdirSync(out).sort()).toEqual(list.map((r) => `${r.task}__${r.strategy}__epoch-${r.epoch}`).sort());
    const suite = await loadSuiteFile('tasks/core.yaml');
    if (!suite.ok) throw new Error('core suite does not load');
    for (const record of list) {
      const trial = readHarborTrial(join(out, `${record.task}__${record.strategy}__epoch-${record.epoch}`));
      expect(trial.errors, record.key).toEqual([]);
      const trajectory = trial.main[0]!;
      expect(trajectory.session_id).toBe(record.key);
      expect(trajectory.steps[0]).toMatchObject({ source: 'user', message: suite.tasks.find((t) => t.id === record.task)!.prompt });
      // every model call is an agent step of the trial (the single agent's in trajectory.json, a role's in its own file)
      const agentSteps = [trajectory, ...trial.subagents.values()].flatMap((t) => t.steps.filter((step) => step.source === 'agent' && step.metrics));
      expect(agentSteps).toHaveLength(record.trace.filter((e) => e.type === 'model_call').length);
      expect(trajectory.extra?.['stratbench']).toMatchObject({ task: record.task, strategy: record.strategy, success: record.success, fixture: 'shop' });
    }
    const failed = list.find((r) => r.task === 'moved-readme' && r.strategy === 'plan-up-front')!;
    expect(failed.attribution).toMatchObject({ component: 'planner', mode: 'wrong_check' });
    const trajectory = readHarborTrial(join(out, 'moved-readme__plan-up-front__epoch-0')).main[0]!;
    const attribution = (trajectory.extra!['stratbench'] as { attribution: { evidence: number[]; evidence_steps: number[] } }).attribution;
    expect(attribution.evidence_steps).toHaveLength(failed.attribution!.evidence.length);
    attribution.evidence.forEach((eventId, at) => {
      const step = trajectory.steps[attribution.evidence_steps[at]! - 1]!;
      expect((step.extra!['stratbench'] as { event_ids: number[] }).event_ids).toContain(eventId);
    });
    const plan = trajectory.steps.find((step) => step.source === 'system' && String(step.message).startsWith('plan (revision 0)'));
    expect((plan!.extra!['stratbench'] as { event: { type: string; plan: { steps: unknown[] } } }).event.type).toBe('plan');
    // The final checks close the trajectory; the one that failed says so.
    expect(trajectory.steps.at(-1)).toMatchObject({ source: 'system', message: expect.stringMatching(/^final check report_faithful passed/) });
    expect(trajectory.steps.at(-2)).toMatchObject({ source: 'system', message: expect.stringMatching(/^final check answer_value failed/) });
  });

  it('refuses an ATIF output folder that already holds files, stdout for ATIF, a bad format and an unreadable folder (exit 2)', () => {
    const out = join(scratch(), 'busy');
    mkdirSync(out);
    writeFileSync(join(out, 'keep.json'), '{}');
    const busy = stratbench(['export', dir, '--format', 'atif', '--out', out]);
    expect([busy.status, busy.stderr.trim()]).toEqual([2, `stratbench: cannot export into ${out}: it already holds 1 file(s); give a new or empty folder`]);
    expect(readdirSync(out)).toEqual(['keep.json']);
    const format = stratbench(['export', dir, '--format', 'xlsx', '--out', out]);
    expect(format.status).toBe(2);
    expect(format.stderr).toContain("argument 'xlsx' is invalid. Allowed choices are csv, atif.");
    const missing = join(scratch(), 'nothing');
    const unreadable = stratbench(['export', missing, '--format', 'csv', '--out', '-']);
    expect(unreadable.status).toBe(2);
    expect(unreadable.stderr).toContain(`cannot read results folder ${missing}`);
    expect(unreadable.stdout).toBe('');
    const stdout = stratbench(['export', dir, '--format', 'atif', '--out', '-']);
    expect([stdout.status, stdout.stderr.trim()]).toEqual([
      2,
      'stratbench: --format atif writes one trial folder per episode into a folder; --out - (stdout) is for --format csv',
    ]);
  });

  it('refuses a CSV path it cannot write (exit 2, naming the path)', () => {
    const blocker = join(scratch(), 'file');
    writeFileSync(blocker, 'x');
    const result = stratbench(['report', dir, '--csv', join(blocker, 'episodes.csv')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`cannot write ${join(blocker, 'episodes.csv')}`);
  });
});

describe('exports of a hand-written folder with an error episode', () => {
  it('exports the error episode as a row with its kind and as a valid trajectory without a prompt when the suite is gone', () => {
    const dir = scratch();
    const error = episodeRecord('a', {
      outcome: { status: 'error', reason: 'infrastructure:timeout', message: '=HYPERLINK("http://x")' },
      success: false,
      trace: [{ id: 0, t_ms: 0, type: 'end', status: 'error', reason: 'infrastructure:timeout', message: '=HYPERLINK("http://x")' }],
    });
    writeFileSync(join(dir, 'episodes.jsonl'), `${JSON.stringify(error)}\n`);
    writeFileSync(join(dir, 'run.json'), JSON.stringify(runFile({ suite: { path: join(dir, 'gone.yaml'), name: 'gone', hash: 'f'.repeat(64) } })));
    const csv = stratbench(['export', dir, '--format', 'csv', '--out', '-']);
    expect(csv.status, csv.stderr).toBe(0);
    const [header, row] = parseCsv(csv.stdout);
    const at = (column: (typeof CSV_COLUMNS)[number]) => row![header!.indexOf(column)];
    expect([at('status'), at('success'), at('error'), at('message'), at('attribution_mode')]).toEqual(['error', '0', 'timeout', `'=HYPERLINK("http://x")`, '']);
    const out = join(dir, 'atif');
    const atif = stratbench(['export', dir, '--format', 'atif', '--out', out]);
    expect(atif.status, atif.stderr).toBe(0);
    expect(atif.stderr).toContain(`note: suite ${join(dir, 'gone.yaml')} is not readable`);
    const trial = readHarborTrial(join(out, 'a__direct__epoch-0'));
    expect(trial.errors).toEqual([]);
    const trajectory = trial.main[0]!;
    expect(trajectory.steps.map((step) => [step.source, step.message])).toEqual([
      ['user', ''],
      ['system', 'episode ended: error (infrastructure:timeout) — message: =HYPERLINK("http://x")'],
    ]);
    expect(trajectory.notes).toContain('infrastructure error (not scored)');
  });
});
