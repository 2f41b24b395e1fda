// The checks a generated task uses to judge words (issue 26 §2): answer_value with the type its expected value has,
// and report_faithful on every generated task's report.

/** A commit sha as a generator writes one: 7 to 40 hex digits with a digit and a letter. */
const SHA = /^[0-9a-f]{7,40}$/;
/** A plain decimal number ("3", "-0.6", "12.875"). */
const NUMBER = /^-?\d+(?:\.\d+)?$/;

/** The answer_value type a literal value reads as: sha, number, else text. */
export function valueType(value: string): 'sha' | 'number' | 'text' {
  if (SHA.test(value) && /\d/.test(value) && /[a-f]/.test(value)) return 'sha';
  return NUMBER.test(value) || COUNT.test(value) ? 'number' : 'text';
}

/** A count with its noun ("90 passed", "3 retries"): judged as the number. */
const COUNT = /^-?\d+(?:\.\d+)?\s+[a-z]+$/i;

/**
 * An answer_value check for `value` with its type read from it (valueType); `forms` are other ways to write a text
 * value; `on: 'message'` for a stop message. A text value with a form list of one keeps the list.
 */
export function valueCheck(value: string, options: { forms?: readonly string[]; on?: 'message' } = {}): Record<string, unknown> {
  const type = valueType(value);
  return {
    check: 'answer_value',
    ...(options.on === undefined ? {} : { on: options.on }),
    type,
    expect: type === 'number' ? Number(value.split(/\s/)[0]) : value,
    ...(type === 'text' && options.forms !== undefined && options.forms.length > 0 ? { forms: [...options.forms] } : {}),
  };
}

/**
 * An answer_value check for what `node -e 'console.log(JSON.stringify(…))'` printed: a number, a string (its text),
 * true/false/null (as text), or an array/object (json, compared deep-equal). Undefined for output that is not JSON.
 */
export function printedValueCheck(printed: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(printed) as unknown;
  } catch {
    return undefined;
  }
  if (typeof value === 'number') return { check: 'answer_value', type: 'number', expect: value };
  if (typeof value === 'string') return value.trim() === '' ? undefined : { check: 'answer_value', type: 'text', expect: value };
  if (value === null || typeof value === 'boolean') return { check: 'answer_value', type: 'text', expect: String(value) };
  return { check: 'answer_value', type: 'json', expect: printed };
}

/** Every generated task's report is checked against its trace (report_faithful), once. */
export function withReportFaithful(checks: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return checks.some((check) => check['check'] === 'report_faithful') ? [...checks] : [...checks, { check: 'report_faithful' }];
}

/**
 * The answer_value checks for a question's answer values: one per type, a list where several values share it (the
 * question asks for all of them: "408, 425 and 429" is one answer, not an enumeration that hides which value is meant).
 */
export function valueChecks(values: readonly string[]): Record<string, unknown>[] {
  const byType = new Map<string, string[]>();
  for (const value of values) byType.set(valueType(value), [...(byType.get(valueType(value)) ?? []), value]);
  return [...byType.entries()].map(([type, items]) => {
    if (items.length === 1) return valueCheck(items[0] as string);
    return { check: 'answer_value', type, expect: items.map((item) => (type === 'number' ? Number(item.split(/\s/)[0]) : item)) };
  });
}
