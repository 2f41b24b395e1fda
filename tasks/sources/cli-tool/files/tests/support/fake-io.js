// An in-memory io for run(): captured stdout/stderr, files in a Map, a fixed clock and a recorded git history.
export const NOW = Date.UTC(2026, 9, 6, 9, 0);

export const TAGS = ["v1.4.2 2026-09-14", "v1.4.1 2026-09-01", "v1.4.0 2026-08-01", "v1.5.0-rc.1 2026-10-01", "nightly 2026-10-05"].join("\n");

const record = (sha, author, date, message) => `${sha}\x1f${author}\x1f${date}\x1f${message}\x1e\n`;

/** The commits after each tag (git log <tag>..HEAD), newest first; null = the whole history. */
export const LOGS = {
  "v1.4.2..HEAD": [
    record("a9d2c7e41b0f8e3d6c5b4a39281706f5e4d3c2b1", "Kofi Mensah", "2026-10-05", "feat(stats): show the release cadence"),
    record("5114f85c0a7e4b8d9f21a3c6e0b7d4f1a2c3e4f5", "Lena Vogt", "2026-10-02", "fix: handle tags without a date\n\nCloses #52"),
    record("0c1d2e3f4a5b6c7d8e9f00112233445566778899", "Ravi Iyer", "2026-09-20", "Update README."),
  ].join(""),
  "v1.4.1..HEAD": record("d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3", "Lena Vogt", "2026-09-10", "docs: config keys"),
  "v1.4.0..HEAD": record("e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4", "Lena Vogt", "2026-08-20", "fix(cli)!: exit 2 on a bad config\n"),
};

/** A fresh io; `overrides` replace parts of it (files: path → text). */
export function fakeIo({ files = {}, tags = TAGS, logs = LOGS, now = NOW } = {}) {
  const out = [];
  const err = [];
  const written = new Map();
  const disk = new Map(Object.entries(files));
  const io = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readFile: (path) => (disk.has(path) ? disk.get(path) : null),
    writeFile: (path, text) => {
      written.set(path, text);
      disk.set(path, text);
    },
    now: () => now,
    git: {
      tags: () => tags,
      log: (range) => {
        const key = range ?? "(all)";
        if (!(key in logs)) throw new Error(`unexpected git log ${key}`);
        return logs[key];
      },
    },
  };
  return { io, written, stdout: () => out.join(""), stderr: () => err.join("") };
}
