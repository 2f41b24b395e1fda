// The smallest valid suite (one fixture, one task, one check): error tests edit it and read file:line:col off it.
export const TINY_SUITE = `name: tiny
fixtures:
  base:
    files:
      a.txt: hello
tasks:
  - id: one
    group: baseline
    prompt: Say hello
    repo:
      fixture: base
    expect: finish
    checks:
      - check: answer_contains
        text: hello
    reference:
      steps:
        - tool: read
          args: { path: a.txt }
      finish: hello
`;
