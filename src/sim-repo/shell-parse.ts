// Owns command-line parsing for the simulated shell: quoting, $VAR expansion, &&/||/; chains, VAR=value prefixes.

/** How a segment is joined to the one before it (`null` for the first). */
export type Connector = '&&' | '||' | ';';

/** One simple command of a command line. */
export interface CommandSegment {
  connector: Connector | null;
  /** Leading `VAR=value` assignments: they apply to this command's environment only. */
  assignments: Readonly<Record<string, string>>;
  /** The command's words with quotes removed and variables expanded. */
  words: string[];
  /** `words` joined by single spaces (whitespace-normalised, used for fault and script matching). */
  text: string;
}

export type ParseResult = { ok: true; segments: CommandSegment[] } | { ok: false; message: string };

interface Word {
  value: string;
  /** Index in `value` of the first character that came from inside quotes (Infinity when none). */
  firstQuoted: number;
}
type Token = { type: 'word'; word: Word } | { type: 'op'; value: Connector };

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const UNSUPPORTED = (what: string) =>
  `sh: 1: unsupported syntax '${what}': this shell runs simple commands joined by &&, || or ; (no pipes, redirections, background jobs or substitutions)`;

/**
 * Parses a command line. `$NAME` and `${NAME}` expand from `env` (as a real shell does, before the
 * command's own `VAR=value` prefix applies); single quotes are literal; `2>&1` is accepted and ignored.
 * Pipes, redirections, `&`, backticks and `$(...)` are refused with a shell-style message.
 */
export function parseCommandLine(line: string, env: Readonly<Record<string, string>>): ParseResult {
  const tokens = tokenize(line, env);
  if (typeof tokens === 'string') return { ok: false, message: tokens };
  const segments: CommandSegment[] = [];
  let connector: Connector | null = null;
  let current: Word[] = [];
  const flush = (op: Connector | null): string | undefined => {
    if (current.length === 0) {
      if (op === ';' || op === null) return undefined;
      return `sh: 1: Syntax error: "${op}" unexpected`;
    }
    segments.push(toSegment(connector, current));
    current = [];
    connector = op;
    return undefined;
  };
  for (const token of tokens) {
    if (token.type === 'word') {
      current.push(token.word);
      continue;
    }
    const error = flush(token.value);
    if (error !== undefined) return { ok: false, message: error };
  }
  if (current.length === 0 && connector !== null && connector !== ';') {
    return { ok: false, message: 'sh: 1: Syntax error: end of file unexpected' };
  }
  flush(null);
  return { ok: true, segments };
}

/** Whitespace-normalises a command (quotes removed, no expansion): `"pnpm   install"` → `pnpm install`. */
export function normaliseCommand(text: string): string {
  const tokens = tokenize(text, {});
  if (typeof tokens === 'string') return text.trim().split(/\s+/).join(' ');
  return tokens.map((token) => (token.type === 'word' ? token.word.value : token.value)).join(' ');
}

function toSegment(connector: Connector | null, words: Word[]): CommandSegment {
  const assignments: Record<string, string> = {};
  let index = 0;
  for (; index < words.length; index++) {
    const word = words[index]!;
    const match = ASSIGNMENT.exec(word.value);
    if (match === null || match[0].length - 1 > word.firstQuoted) break;
    assignments[match[1]!] = word.value.slice(match[0].length);
  }
  const values = words.slice(index).map((word) => word.value);
  return { connector, assignments, words: values, text: values.join(' ') };
}

function tokenize(line: string, env: Readonly<Record<string, string>>): Token[] | string {
  const tokens: Token[] = [];
  let value = '';
  let firstQuoted = Infinity;
  let inWord = false;
  const endWord = () => {
    if (inWord) tokens.push({ type: 'word', word: { value, firstQuoted } });
    value = '';
    firstQuoted = Infinity;
    inWord = false;
  };
  const quoted = (text: string) => {
    if (firstQuoted === Infinity) firstQuoted = value.length;
    value += text;
    inWord = true;
  };
  let i = 0;
  while (i < line.length) {
    const char = line[i]!;
    const next = line[i + 1];
    if (char === ' ' || char === '\t') {
      endWord();
      i++;
    } else if (char === '\n' || char === ';') {
      endWord();
      tokens.push({ type: 'op', value: ';' });
      i++;
    } else if ((char === '&' || char === '|') && next === char) {
      endWord();
      tokens.push({ type: 'op', value: char === '&' ? '&&' : '||' });
      i += 2;
    } else if (char === '>' && value === '2' && line.startsWith('>&1', i)) {
      value = '';
      inWord = false;
      i += 3;
    } else if (char === '|' || char === '&' || char === '>' || char === '<' || char === '`') {
      return UNSUPPORTED(char);
    } else if (char === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) return 'sh: 1: Syntax error: Unterminated quoted string';
      quoted(line.slice(i + 1, close));
      i = close + 1;
    } else if (char === '"') {
      let text = '';
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        const inner = line[j]!;
        if (inner === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) {
          text += line[++j];
        } else if (inner === '$') {
          const expanded = expand(line, j, env);
          if (typeof expanded === 'string') return expanded;
          text += expanded.value;
          j = expanded.end - 1;
        } else {
          text += inner;
        }
      }
      if (j >= line.length) return 'sh: 1: Syntax error: Unterminated quoted string';
      quoted(text);
      i = j + 1;
    } else if (char === '\\' && next !== undefined) {
      quoted(next);
      i += 2;
    } else if (char === '$') {
      const expanded = expand(line, i, env);
      if (typeof expanded === 'string') return expanded;
      value += expanded.value;
      inWord = inWord || expanded.value !== '' || expanded.literal;
      i = expanded.end;
    } else {
      value += char;
      inWord = true;
      i++;
    }
  }
  endWord();
  return tokens;
}

/** Expands `$NAME` / `${NAME}` at `start` (which holds `$`); an unset variable expands to ''. */
function expand(line: string, start: number, env: Readonly<Record<string, string>>): { value: string; end: number; literal: boolean } | string {
  const next = line[start + 1];
  if (next === '(') return UNSUPPORTED('$(');
  if (next === '{') {
    const close = line.indexOf('}', start + 2);
    if (close === -1) return 'sh: 1: Syntax error: Missing }';
    const name = line.slice(start + 2, close);
    return { value: env[name] ?? '', end: close + 1, literal: false };
  }
  if (next === undefined || !NAME_START.test(next)) return { value: '$', end: start + 1, literal: true };
  let end = start + 1;
  while (end < line.length && NAME_CHAR.test(line[end]!)) end++;
  return { value: env[line.slice(start + 1, end)] ?? '', end, literal: false };
}
