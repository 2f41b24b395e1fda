// pass@k and pass^k for one task from its n scored epochs with c successes (unbiased estimators, τ-bench / Codex).

/**
 * The binomial coefficient C(n, k) as a float, computed as a running product so that it stays exact for the small
 * n of a benchmark (exact integers up to 2^53). 0 when k < 0 or k > n.
 */
export function binomialCoefficient(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  const smaller = Math.min(k, n - k);
  let result = 1;
  for (let i = 1; i <= smaller; i += 1) result = (result * (n - smaller + i)) / i;
  return Math.round(result);
}

function checkArguments(n: number, c: number, k: number): void {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k)) {
    throw new RangeError(`pass-k: n, c and k must be integers, got n=${n} c=${c} k=${k}`);
  }
  if (c < 0 || c > n) throw new RangeError(`pass-k: successes ${c} outside [0, ${n}]`);
  if (k < 1 || k > n) throw new RangeError(`pass-k: k must be in [1, ${n}], got ${k}`);
}

/**
 * pass^k for one task: the probability that k epochs drawn without replacement from the n observed ones all
 * succeed, C(c, k) / C(n, k) (Yao et al. 2024, "τ-bench", §5). Averaged over tasks it is the benchmark's pass^k;
 * pass^1 = c / n is the success rate. Throws RangeError unless 1 ≤ k ≤ n and 0 ≤ c ≤ n (integers).
 */
export function passHatK(n: number, c: number, k: number): number {
  checkArguments(n, c, k);
  return binomialCoefficient(c, k) / binomialCoefficient(n, k);
}

/**
 * pass@k for one task: the probability that at least one of k epochs drawn without replacement from the n observed
 * ones succeeds, 1 − C(n − c, k) / C(n, k) (Chen et al. 2021, "Evaluating Large Language Models Trained on Code",
 * eq. 1). Throws RangeError unless 1 ≤ k ≤ n and 0 ≤ c ≤ n (integers).
 */
export function passAtK(n: number, c: number, k: number): number {
  checkArguments(n, c, k);
  return 1 - binomialCoefficient(n - c, k) / binomialCoefficient(n, k);
}
