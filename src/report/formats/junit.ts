// JUnit XML rendering of a comparison report: the gate's decision as one test case, then one per task × strategy.
import { VERDICT_EXIT_CODES } from '../compare-gate.js';
import type { ComparisonReport, StrategyChange, TaskComparison } from '../compare-report.js';
import { formatChange, formatMinimumDetectableEffect, formatPValue, formatTaskSide } from './numbers.js';

/** Characters XML 1.0 forbids (C0 controls other than tab, newline, carriage return; U+FFFE/U+FFFF; lone surrogates). */
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for XML character data and attribute values (&, <, >, ", '), dropping characters XML cannot hold. */
export function escapeXml(text: string): string {
  return text.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** How a test case ends: a failure only for a regression; what did not run is skipped; everything else passed. */
type CaseKind = 'passed' | 'failure' | 'skipped';

interface RenderedCase {
  kind: CaseKind;
  /** Seconds. */
  seconds: number;
  xml: string;
}

/** Seconds as junit-10.xsd's SUREFIRE_TIME accepts them: "0.250". */
const time = (seconds: number): string => seconds.toFixed(3);

const attribute = (name: string, value: string): string => `${name}="${escapeXml(value)}"`;

function properties(entries: readonly (readonly [string, string])[], indent: string): string[] {
  if (entries.length === 0) return [];
  return [
    `${indent}<properties>`,
    ...entries.map(([name, value]) => `${indent}  <property ${attribute('name', name)} ${attribute('value', value)}/>`),
    `${indent}</properties>`,
  ];
}

/** The gate's decision as one test case: a failure when regressed, skipped (with the reasons) when inconclusive. */
function decisionCase(report: ComparisonReport): RenderedCase {
  const { decision } = report;
  const open = `    <testcase classname="stratbench.gate" name="decision" time="${time(0)}"`;
  switch (decision.verdict) {
    case 'regressed':
      return {
        kind: 'failure',
        seconds: 0,
        xml: `${open}>\n      <failure ${attribute('message', `regressed: ${decision.reasons.join('; ')}`)} type="regression">${escapeXml(decision.reasons.join('\n'))}</failure>\n    </testcase>`,
      };
    case 'inconclusive':
      return {
        kind: 'skipped',
        seconds: 0,
        xml: `${open}>\n      <skipped ${attribute('message', `inconclusive: ${decision.inconclusive.join('; ')}`)}/>\n    </testcase>`,
      };
    case 'no regression':
      return { kind: 'passed', seconds: 0, xml: `${open}/>` };
    default: {
      const unhandled: never = decision.verdict;
      throw new Error(`unhandled verdict ${String(unhandled)}`);
    }
  }
}

function taskCase(task: TaskComparison): RenderedCase {
  const seconds = (task.head?.wallMs ?? 0) / 1000;
  const open = `    <testcase ${attribute('classname', `stratbench.${task.strategy}.${task.group}`)} ${attribute('name', task.task)} time="${time(seconds)}"`;
  const base = `base ${formatTaskSide(task.base)}`;
  const head = `head ${formatTaskSide(task.head)}`;
  const details = `strategy: ${task.strategy}\ntask: ${task.task}\ngroup: ${task.group}\nbase: ${formatTaskSide(task.base)}\nhead: ${formatTaskSide(task.head)}`;
  if (!task.head) return { kind: 'skipped', seconds, xml: `${open}>\n      <skipped ${attribute('message', `not in head (${base})`)}/>\n    </testcase>` };
  if (task.head.epochs === 0) {
    const message = `every head episode was an infrastructure error (${task.head.errors}), left out of the rates`;
    return { kind: 'skipped', seconds, xml: `${open}>\n      <skipped ${attribute('message', message)} type="infrastructure"/>\n    </testcase>` };
  }
  if (task.flip === 'regressed') {
    const message = `regressed: ${base} → ${head}${task.gating ? ' (stable-pass → stable-fail trips the gate)' : ` (part of ${task.strategy}'s significant drop)`}`;
    return {
      kind: 'failure',
      seconds,
      xml: `${open}>\n      <failure ${attribute('message', message)} type="regressed">${escapeXml(details)}</failure>\n    </testcase>`,
    };
  }
  const change = task.flip === null ? 'no flip' : `${task.flip} (not a regression the gate found)`;
  return { kind: 'passed', seconds, xml: `${open}>\n      <system-out>${escapeXml(`${details}\nflip: ${change}`)}</system-out>\n    </testcase>` };
}

function strategyProperties(entry: StrategyChange | undefined): (readonly [string, string])[] {
  if (!entry) return [['verdict', 'not compared (no shared scored task)']];
  return [
    ['verdict', entry.verdict],
    ['change', formatChange(entry.change.difference)],
    ['p', formatPValue(entry.change.test.pValue)],
    ['minimum detectable effect', formatMinimumDetectableEffect(entry.change)],
    [
      'independent units',
      `${entry.design.units} ${entry.design.units === 1 ? entry.design.unit.replace(/(ies|s)$/, (end) => (end === 'ies' ? 'y' : '')) : entry.design.unit}`,
    ],
  ];
}

function suite(name: string, cases: readonly RenderedCase[], entries: readonly (readonly [string, string])[]): { xml: string; cases: RenderedCase[] } {
  const count = (kind: CaseKind): number => cases.filter((item) => item.kind === kind).length;
  const seconds = cases.reduce((sum, item) => sum + item.seconds, 0);
  const head = `  <testsuite ${attribute('name', name)} tests="${cases.length}" failures="${count('failure')}" errors="0" skipped="${count('skipped')}" time="${time(seconds)}">`;
  return { xml: [head, ...properties(entries, '    '), ...cases.map((item) => item.xml), '  </testsuite>'].join('\n'), cases: [...cases] };
}

/**
 * JUnit XML valid against Jenkins' junit-10.xsd (tests/fixtures/junit-10.xsd). A <failure> means a regression the
 * gate found, nothing else, so comparing a run with itself gives none. First a <testsuite name="gate"> whose one test
 * case, "decision", fails when the verdict is regressed (message: the reasons), is skipped when it is inconclusive
 * (message: why) and passes otherwise; its properties carry the verdict, the exit code with --fail-on-regression and
 * each reason. Then a <testsuite> per compared strategy (properties: verdict, change, p, minimum detectable effect,
 * independent units) with a <testcase> per task (classname stratbench.<strategy>.<group>, name = task id, time = the
 * head's wall time for it in seconds): a <failure type="regressed"> for a flip labelled regressed; <skipped> for a
 * task not in the head or whose head episodes were all infrastructure errors; otherwise passed, base and head results
 * in <system-out>. `time` of suites is the sum of their cases'.
 */
export function renderJUnit(report: ComparisonReport): string {
  const { decision } = report;
  const gate = suite(
    'gate',
    [decisionCase(report)],
    [
      ['verdict', decision.verdict],
      ['exit code with --fail-on-regression', String(VERDICT_EXIT_CODES[decision.verdict])],
      ...[...decision.reasons, ...decision.inconclusive].map((reason) => ['reason', reason] as const),
      ...decision.warnings.map((warning) => ['warning', warning] as const),
    ],
  );
  const strategies = [...new Set(report.tasks.map((task) => task.strategy))];
  const suites = [
    gate,
    ...strategies.map((strategy) =>
      suite(
        strategy,
        report.tasks.filter((task) => task.strategy === strategy).map(taskCase),
        strategyProperties(report.strategies.find((entry) => entry.strategy === strategy)),
      ),
    ),
  ];
  const cases = suites.flatMap((item) => item.cases);
  const seconds = cases.reduce((sum, item) => sum + item.seconds, 0);
  const failures = cases.filter((item) => item.kind === 'failure').length;
  // junit-10.xsd allows only name, time, tests, failures and errors on <testsuites>.
  const open = `<testsuites name="stratbench compare" tests="${cases.length}" failures="${failures}" errors="0" time="${time(seconds)}">`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', open, ...suites.map((item) => item.xml), '</testsuites>', ''].join('\n');
}
