// The two functions of d3's CSV module (d3-dsv, re-exported by the d3 package we depend on) that the CSV export uses;
// d3 ships no type declarations.
declare module 'd3' {
  /** One RFC 4180 row: a cell holding a comma, a double quote, CR or LF is quoted, its quotes doubled; null/undefined → "". */
  export function csvFormatRow(row: ReadonlyArray<string | number | null | undefined>): string;
  /** Parses CSV text into rows of cells (quoted cells unquoted), without treating the first row as a header. */
  export function csvParseRows(text: string): string[][];
}
