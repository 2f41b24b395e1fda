// `npm run attacks`: runs the grader attack catalogue (tests/support/grader-attacks.ts) against the real scoring
// path and prints, per attack, whether it fooled the hidden-test checks or the command checks, or crashed the grader.
import { performance } from 'node:perf_hooks';
import { GRADER_ATTACKS, gradeAttack, gradesCommand, gradesHidden, type Verdict } from '../tests/support/grader-attacks.js';

/** One grading: `yes` fooled (or, for a control, passed), `no` rejected, `CRASH` an exception, `-` not this target. */
const cell = (verdict: Verdict | undefined): string => (verdict === undefined ? '-' : verdict.crash !== undefined ? 'CRASH' : verdict.fooled ? 'yes' : 'no');

const rows: string[][] = [];
const totals = {
  hidden: { tried: 0, fooled: 0, crashes: 0 },
  command: { tried: 0, fooled: 0, crashes: 0 },
};
const controlsFailing: string[] = [];
const started = performance.now();
for (const attack of GRADER_ATTACKS) {
  const hidden = gradesHidden(attack) ? gradeAttack(attack, 'hidden') : undefined;
  const command = gradesCommand(attack) ? gradeAttack(attack, 'command') : undefined;
  const crashes = [hidden?.crash, command?.crash].filter((message): message is string => message !== undefined);
  if (attack.control === true) {
    if (hidden?.fooled === false || command?.fooled === false) controlsFailing.push(attack.id);
  } else {
    for (const [verdict, total] of [
      [hidden, totals.hidden],
      [command, totals.command],
    ] as const) {
      if (verdict === undefined) continue;
      total.tried++;
      if (verdict.crash !== undefined) total.crashes++;
      else if (verdict.fooled) total.fooled++;
    }
  }
  rows.push([attack.id, attack.kind, attack.target, cell(hidden), cell(command), crashes.length > 0 ? crashes[0]!.slice(0, 70) : '']);
}

const header = ['attack', 'kind', 'target', 'fooled hidden tests?', 'fooled command checks?', 'crashed?'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
const line = (row: string[]) =>
  row
    .map((text, column) => text.padEnd(widths[column]!))
    .join('  ')
    .trimEnd();
console.log(line(header));
console.log(widths.map((width) => '-'.repeat(width)).join('  '));
for (const row of rows) console.log(line(row));
console.log('');
console.log('(controls fix the bug honestly: "yes" is the expected grade for them and they are not counted below)');
for (const [name, total] of [
  ['hidden tests  ', totals.hidden],
  ['command checks', totals.command],
] as const) {
  console.log(`${name}: ${total.tried} attacks tried, ${total.fooled} fooled, ${total.crashes} crashes`);
}
if (controlsFailing.length > 0) console.log(`controls failing (the grader rejects honest fixes): ${controlsFailing.join(', ')}`);
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
process.exitCode = controlsFailing.length > 0 ? 1 : 0;
