#!/usr/bin/env node
// The installed `relnote` binary: real stdout, files and git behind the io object run() expects.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { LOG_FORMAT } from "../src/git-log.js";
import { run } from "../src/cli.js";

const git = (...args) => execFileSync("git", args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

const io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => {
    try {
      return readFileSync(path, "utf8");
    } catch (error) {
      if (error.code === "ENOENT") return null;
      throw error;
    }
  },
  writeFile: (path, text) => writeFileSync(path, text),
  now: () => Date.now(),
  git: {
    tags: () => git("tag", "--list", "--format=%(refname:short) %(creatordate:short)"),
    log: (range) => git("log", `--format=${LOG_FORMAT}`, ...(range === null ? [] : [range])),
  },
};

process.exitCode = run(process.argv.slice(2), io);
