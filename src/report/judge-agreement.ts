// How far a judge's verdicts agree with hand labels: agreement, Cohen's κ with its standard error, false passes and fails.

/** One labelled item graded by a judge. */
export interface GradedLabel {
  label: 'pass' | 'fail';
  verdict: 'pass' | 'fail';
}

/** Agreement of a judge with the labels over `n` items. */
export interface Agreement {
  n: number;
  /** Share of items where verdict = label (0–1). */
  agreement: number;
  /** Cohen's κ; null when it is undefined (chance agreement is 1: labels and verdicts all one and the same value). */
  kappa: number | null;
  /** Standard error of κ (Cohen 1960), null with κ. */
  kappa_se: number | null;
  /** κ ± 1.96 SE, clipped to [−1, 1]; null with κ. */
  kappa_ci95: [number, number] | null;
  /** Verdict pass on an item labelled fail (the judge accepts a wrong answer). */
  false_passes: number;
  /** Verdict fail on an item labelled pass (the judge rejects a correct answer). */
  false_fails: number;
}

/**
 * Agreement, Cohen's κ = (p_o − p_e) / (1 − p_e) with p_e = p_label(pass)·p_verdict(pass) + p_label(fail)·p_verdict(fail),
 * and κ's large-sample standard error √(p_o (1 − p_o) / (n (1 − p_e)²)) (Cohen 1960, "A coefficient of agreement for
 * nominal scales", eq. 9). Throws RangeError for an empty list.
 */
export function judgeAgreement(items: readonly GradedLabel[]): Agreement {
  const n = items.length;
  if (n === 0) throw new RangeError('agreement of no items');
  const agree = items.filter((item) => item.label === item.verdict).length;
  const falsePasses = items.filter((item) => item.label === 'fail' && item.verdict === 'pass').length;
  const falseFails = items.filter((item) => item.label === 'pass' && item.verdict === 'fail').length;
  const po = agree / n;
  const labelPass = items.filter((item) => item.label === 'pass').length / n;
  const verdictPass = items.filter((item) => item.verdict === 'pass').length / n;
  const pe = labelPass * verdictPass + (1 - labelPass) * (1 - verdictPass);
  if (pe >= 1) return { n, agreement: po, kappa: null, kappa_se: null, kappa_ci95: null, false_passes: falsePasses, false_fails: falseFails };
  const kappa = (po - pe) / (1 - pe);
  const se = Math.sqrt((po * (1 - po)) / (n * (1 - pe) ** 2));
  const clip = (value: number) => Math.max(-1, Math.min(1, value));
  return {
    n,
    agreement: po,
    kappa,
    kappa_se: se,
    kappa_ci95: [clip(kappa - 1.96 * se), clip(kappa + 1.96 * se)],
    false_passes: falsePasses,
    false_fails: falseFails,
  };
}

/** "κ 0.74 ± 0.10 (95% CI 0.54–0.94), agreement 87% (41/47), 4 false passes, 2 false fails"; κ n/a when undefined. */
export function formatAgreement(value: Agreement): string {
  const kappa =
    value.kappa === null || value.kappa_se === null || value.kappa_ci95 === null
      ? 'κ n/a (every label and verdict the same)'
      : `κ ${value.kappa.toFixed(2)} ± ${value.kappa_se.toFixed(2)} (95% CI ${value.kappa_ci95[0].toFixed(2)}–${value.kappa_ci95[1].toFixed(2)})`;
  const agreed = Math.round(value.agreement * value.n);
  return `${kappa}, agreement ${(value.agreement * 100).toFixed(0)}% (${agreed}/${value.n}), ${value.false_passes} false pass${value.false_passes === 1 ? '' : 'es'}, ${value.false_fails} false fail${value.false_fails === 1 ? '' : 's'}`;
}
