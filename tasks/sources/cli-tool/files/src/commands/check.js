// `relnote check`: lints the commit messages since the last release against Conventional Commits and the config.
import { EXIT } from "../errors.js";
import { readHistory } from "../history.js";
import { renderTable } from "../table.js";

export const OPTIONS = {
  from: { type: "string" },
  "max-problems": { type: "integer", default: 0, min: 0, max: 1000 },
};

/** The problems of one commit ({ sha, author, message, parsed }) under `config`, as short sentences. */
export function commitProblems(commit, config) {
  const header = commit.message.split("\n")[0];
  const problems = [];
  if (header.length > config.maxHeaderLength) problems.push(`header is ${header.length} characters (max ${config.maxHeaderLength})`);
  if (commit.parsed === null) return [...problems, "not a conventional commit header (type(scope): subject)"];
  if (!config.types.includes(commit.parsed.type)) problems.push(`unknown type "${commit.parsed.type}"`);
  if (commit.parsed.subject.endsWith(".")) problems.push("subject ends with a period");
  if (/^[A-Z][a-z]/.test(commit.parsed.subject)) problems.push("subject starts with a capital letter");
  return problems;
}

/** Prints a table of problems and a count; exit 1 when there are more than --max-problems. */
export function check({ options, config, io }) {
  const { start, commits } = readHistory(io.git, config, { from: options.from ?? null });
  const rows = commits.flatMap((commit) =>
    commitProblems(commit, config).map((problem) => ({ sha: commit.shortSha, author: commit.author, problem })),
  );
  const since = start === null ? "in the whole history" : `since ${start.tag}`;
  if (rows.length === 0) {
    io.stdout(`${commits.length} commits ${since}: all conventional\n`);
    return EXIT.OK;
  }
  const columns = [
    { key: "sha", header: "Commit", min: 7 },
    { key: "author", header: "Author", min: 6 },
    { key: "problem", header: "Problem", min: 20 },
  ];
  io.stdout(renderTable(rows, columns, { width: config.tableWidth }) + "\n");
  const verdict = `${rows.length} ${rows.length === 1 ? "problem" : "problems"} in ${commits.length} commits ${since}`;
  if (rows.length > options["max-problems"]) {
    io.stderr(`${verdict} (at most ${options["max-problems"]} allowed)\n`);
    return EXIT.PROBLEMS;
  }
  io.stdout(`${verdict}, within the limit of ${options["max-problems"]}\n`);
  return EXIT.OK;
}
