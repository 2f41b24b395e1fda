// The layering of DESIGN.md, enforced in CI (.ci/run): `npm run layers` (`depcruise src scripts`). Arrows point down only:
//   cli → runner → report → results-folder → records;  api (src/index.ts) → strategies, models
//   runner → strategies → (models, tools → sim-repo), scoring, attribution, suite
//   runner → agent-bridge (an external agent's MCP server, model proxy and process) → strategies, models, tools
// records/ (shapes that cross folders) and sim-repo/ (the simulated repository) import nothing of ours;
// files/ (filesystem helpers) is a leaf too. A folder may import itself and anything listed for it below.
/** Folders each folder may import (besides itself, records/, node built-ins and packages). */
const ALLOWED = {
  api: ['strategies', 'models'],
  cli: ['runner', 'models', 'sim-repo'],
  runner: ['agent-bridge', 'report', 'results-folder', 'strategies', 'scoring', 'attribution', 'suite', 'models', 'tools', 'sim-repo', 'trace', 'files'],
  report: ['attribution', 'results-folder', 'files'],
  'results-folder': ['files'],
  strategies: ['models', 'tools', 'scoring', 'suite', 'sim-repo', 'trace'],
  'agent-bridge': ['strategies', 'models', 'tools', 'sim-repo', 'trace'],
  attribution: ['scoring', 'suite'],
  scoring: ['suite', 'sim-repo'],
  suite: ['tools', 'sim-repo'],
  models: ['files'],
  tools: ['sim-repo'],
  trace: [],
  'sim-repo': [],
  records: [],
  files: [],
};

// cli is src/cli.ts and its start-up helpers (src/cli-*.ts); api is src/index.ts, the package's public API (what a
// strategy module imports: issue 28 §1).
const folderOf = (name) => (name === 'cli' ? '^src/cli[a-z-]*\\.ts$' : name === 'api' ? '^src/index\\.ts$' : `^src/${name}/`);

module.exports = {
  forbidden: [
    {
      name: 'records-is-a-leaf',
      comment: 'records/ holds the shapes every folder shares; it imports nothing of ours (DESIGN.md, Layout).',
      severity: 'error',
      from: { path: '^src/records/' },
      to: { path: '^src/', pathNot: '^src/records/' },
    },
    {
      name: 'sim-repo-is-a-leaf',
      comment: 'sim-repo/ (its sandbox included) imports nothing of ours (DESIGN.md, Layout).',
      severity: 'error',
      from: { path: '^src/sim-repo/' },
      to: { path: '^src/', pathNot: '^src/sim-repo/' },
    },
    {
      name: 'no-cycles',
      comment:
        'No file circles in src/ or scripts/, a type-only import closing the loop included: a circle means two files own one ' +
        'concept; the shared shapes go in the lower file or a types module (issue 31 §3).',
      severity: 'error',
      from: { path: '^(src|scripts)/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  allowed: [
    { from: {}, to: { dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'] } },
    { from: { path: '^src/' }, to: { path: '^src/records/' } },
    // scripts/ (maintenance and benchmarks) may import anything: src/, tests/support/, tests/fixtures/, each other; the
    // tests/ files they load are followed, so those may too.
    { from: { path: '^(scripts|tests)/' }, to: {} },
    ...Object.entries(ALLOWED).map(([name, targets]) => ({
      from: { path: folderOf(name) },
      to: { path: [folderOf(name), ...targets.map(folderOf)] },
    })),
  ],
  allowedSeverity: 'error',
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.json'] },
  },
};
