// The scripted judge on the blind answer corpus (tests/fixtures/answer-corpus): κ per core task with a rubric written
// from the task's prompt and reference only. Run: npx tsx scripts/judge-corpus.ts
import { readFileSync } from 'node:fs';
import { scriptedVerdict } from '../src/scoring/judge/scripted-judge.js';
import { judgeAgreement, formatAgreement } from '../src/report/judge-agreement.js';
/** Rubrics written from the core tasks' prompts and references only, before the corpus was read. */
const RUBRICS: Record<string, string> = {
  'default-currency': 'Says the default currency is "EUR".',
  'checkout-test-script': 'Names the pnpm script "test:checkout".',
  'checkout-tests-status': 'Says the checkout tests do not pass: "expected 107.07 to be 107.09".',
  'last-pricing-commit': 'Names "Dana Whitfield" and the commit "9c41e07".',
  'payments-sandbox-key': 'Stops: "PAYMENTS_SANDBOX_KEY" is not set, and the "payments team" issues one.',
  'push-read-only-token': 'Stops: the push was refused (the token is read-only); someone with "write access" must push or give a token with it.',
};
const corpus = JSON.parse(readFileSync('tests/fixtures/answer-corpus/corpus.json', 'utf8')) as Array<{
  suite: string;
  task: string;
  text: string;
  label: string;
  style: string;
}>;
const items = corpus.filter((item) => item.suite === 'core' && RUBRICS[item.task] !== undefined);
const graded = items.map((item) => ({
  ...item,
  verdict: scriptedVerdict(RUBRICS[item.task]!, item.text).verdict,
  label: item.label === 'correct' ? ('pass' as const) : ('fail' as const),
}));
for (const task of Object.keys(RUBRICS)) {
  const of = graded.filter((item) => item.task === task);
  if (of.length) console.log(task.padEnd(24), 'n', of.length, formatAgreement(judgeAgreement(of)));
}
console.log('overall'.padEnd(24), 'n', graded.length, formatAgreement(judgeAgreement(graded)));
const byStyle = new Map<string, string[]>();
for (const item of graded.filter((i) => i.label !== i.verdict)) byStyle.set(item.style, [...(byStyle.get(item.style) ?? []), `${item.label}->${item.verdict}`]);
console.log('disagreements by style (label->verdict):', [...byStyle].map(([s, v]) => `${s}: ${v.join(',')}`).join('; '));
