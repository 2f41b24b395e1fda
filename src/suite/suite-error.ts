// The loader's error value: a position in the suite file, a path into the suite, a message; and how it prints.

/** Where and why a suite file is invalid. `line`/`col` are 1-based; `path` reads like `tasks[3].checks[0].check`. */
export interface SuiteError {
  file: string;
  line: number;
  col: number;
  path: string;
  message: string;
}

/** A path into the parsed suite, as zod and the YAML document use it. */
export type SuitePath = readonly PropertyKey[];

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * Renders a path as `tasks[3].checks[0].check`; keys that are not identifiers are quoted
 * (`repo.files["src/a.ts"]`). The empty path is `(root)`.
 */
export function formatPath(path: SuitePath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else {
      const key = String(segment);
      text += IDENTIFIER.test(key) ? (text === '' ? key : `.${key}`) : `[${JSON.stringify(key)}]`;
    }
  }
  return text === '' ? '(root)' : text;
}

/** `file:line:col  path  message` (two spaces between the parts), the one format every loader error prints in. */
export function formatSuiteError(error: SuiteError): string {
  return `${error.file}:${error.line}:${error.col}  ${error.path}  ${error.message}`;
}

/** Orders errors by position (line, then column); a stable sort, so errors at one position keep their order. */
export function sortSuiteErrors(errors: readonly SuiteError[]): SuiteError[] {
  return [...errors].sort((a, b) => a.line - b.line || a.col - b.col);
}
