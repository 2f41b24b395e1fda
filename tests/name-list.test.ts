// Error messages list names briefly: all of a short list; of a long one, the nearest to what was asked, and a count.
import { describe, expect, it } from 'vitest';
import { listNames } from '../src/report/index.js';

const bench = Array.from({ length: 646 }, (_, index) => `data-lib-rename-${String(index).padStart(3, '0')}`);

describe('listNames', () => {
  it('lists a short list in full, and says (none) for an empty one', () => {
    expect(listNames(['a', 'b'])).toBe('a, b');
    expect(listNames([])).toBe('(none)');
  });

  it('shows 12 of a long list, nearest to the unknown name first (containing it, sharing its words, edit distance), and counts the rest', () => {
    expect(listNames(bench, 'data-lib-rename-64')).toBe(
      'data-lib-rename-640, data-lib-rename-641, data-lib-rename-642, data-lib-rename-643, data-lib-rename-644, data-lib-rename-645, ' +
        'data-lib-rename-064, data-lib-rename-164, data-lib-rename-264, data-lib-rename-364, data-lib-rename-464, data-lib-rename-564 … and 634 more',
    );
    const generated = [
      ...Array.from({ length: 20 }, (_, index) => `api-client-question-${index}-v1`),
      'shop-green-rename-tax-rate-v1',
      'shop-green-rename-tax-code-v1',
    ];
    expect(listNames(generated, 'rename-tax-rate').split(', ').slice(0, 2)).toEqual(['shop-green-rename-tax-rate-v1', 'shop-green-rename-tax-code-v1']);
    expect(listNames(bench)).toBe(`${bench.slice(0, 12).join(', ')} … and 634 more`);
  });
});
