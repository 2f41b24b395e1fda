// JUnit XML rendering of a comparison report: one test case per task × strategy of the compared strategies.
import type { ComparisonReport, TaskComparison } from '../compare-report.js';
import { formatTaskSide } from './numbers.js';

/** Characters XML 1.0 forbids (C0 controls other than tab, newline, carriage return; U+FFFE/U+FFFF; lone surrogates). */
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for XML character data and attribute values (&, <, >, ", '), dropping characters XML cannot hold. */
export function escapeXml(text: string): string {
  return text.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

type CaseKind = 'passed' | 'failure' | 'error' | 'skipped';

function caseKind(task: TaskComparison): CaseKind {
  if (!task.head) return 'skipped';
  if (task.head.epochs === 0) return 'error';
  return task.head.label === 'stable-pass' ? 'passed' : 'failure';
}

function failureMessage(task: TaskComparison): string {
  const head = `head ${formatTaskSide(task.head)}`;
  const base = `base ${formatTaskSide(task.base)}`;
  switch (task.flip) {
    case 'regressed':
      return `regressed: ${base} → ${head}${task.gating ? ' (trips the regression gate)' : ''}`;
    case 'improved':
      return `improved but still failing: ${base} → ${head}`;
    case 'changed':
      return `changed: ${base} → ${head}`;
    case null:
      return task.base ? `failing in base and head: ${base}, ${head}` : `failing (new in head): ${head}`;
    default: {
      const unhandled: never = task.flip;
      throw new Error(`unhandled flip ${String(unhandled)}`);
    }
  }
}

function renderCase(task: TaskComparison): string {
  const open = `    <testcase classname="${escapeXml(`stratbench.${task.strategy}.${task.group}`)}" name="${escapeXml(task.task)}"`;
  const details = `strategy: ${task.strategy}\ntask: ${task.task}\ngroup: ${task.group}\nbase: ${formatTaskSide(task.base)}\nhead: ${formatTaskSide(task.head)}`;
  const kind = caseKind(task);
  switch (kind) {
    case 'passed':
      return `${open}/>`;
    case 'skipped':
      return `${open}>\n      <skipped message="${escapeXml(`not in head (base ${formatTaskSide(task.base)})`)}"/>\n    </testcase>`;
    case 'error':
      return `${open}>\n      <error message="${escapeXml(`every head episode was an infrastructure error (${task.head?.errors ?? 0})`)}" type="infrastructure">${escapeXml(details)}</error>\n    </testcase>`;
    case 'failure': {
      const type = task.flip === 'regressed' ? 'regressed' : 'failed';
      return `${open}>\n      <failure message="${escapeXml(failureMessage(task))}" type="${type}">${escapeXml(details)}</failure>\n    </testcase>`;
    }
    default: {
      const unhandled: never = kind;
      throw new Error(`unhandled case kind ${String(unhandled)}`);
    }
  }
}

function counts(tasks: readonly TaskComparison[]): string {
  const kinds = tasks.map(caseKind);
  const count = (kind: CaseKind): number => kinds.filter((candidate) => candidate === kind).length;
  return `tests="${tasks.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}"`;
}

/**
 * JUnit XML: a <testsuite> per compared strategy and a <testcase> per task (classname stratbench.<strategy>.<group>,
 * name = task id). A head task that is not stable-pass is a <failure> (type "regressed" when its label flipped for the
 * worse, else "failed") whose message carries base and head results and stability labels; a task whose head episodes
 * were all infrastructure errors is an <error>; a task only in base is <skipped>.
 */
export function renderJUnit(report: ComparisonReport): string {
  const strategies = [...new Set(report.tasks.map((task) => task.strategy))];
  const suites = strategies.map((strategy) => {
    const tasks = report.tasks.filter((task) => task.strategy === strategy);
    return [`  <testsuite name="${escapeXml(strategy)}" ${counts(tasks)}>`, ...tasks.map(renderCase), '  </testsuite>'].join('\n');
  });
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="stratbench compare" ${counts(report.tasks)}>`, ...suites, '</testsuites>', ''].join(
    '\n',
  );
}
