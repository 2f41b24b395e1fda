// The agent's process: started in its own process group, its output kept (the tail), the whole group killed.
import { withHostTimeZone } from '../sim-repo/index.js';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';

/** How much of each output stream an episode keeps: the last 8,000 characters (where a crash's error is). */
export const KEPT_OUTPUT_CHARS = 8_000;

/**
 * How the process ended: its exit code, the signal that ended it, and the tails of its output. The command runs under
 * /bin/sh, which reports a child ended by signal N as exit code 128 + N: that signal is named too.
 */
export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  stdout: string;
  /** Wall time from start to exit, ms. */
  wall_ms: number;
}

/**
 * A started agent process. `exited` settles once it has exited and its pipes are closed, or 500 ms after it exited
 * while a process that left its group still holds them (the pipes are then let go: they cannot hold the run open).
 */
export interface AgentProcess {
  pid: number | undefined;
  /** If spawning failed: why (the harness could not start a process; not the agent's doing). */
  spawnError?: string;
  exited: Promise<AgentExit>;
  /**
   * Kills the whole process group (SIGKILL), and every process that left it but still carries the episode's token in
   * its environment (setsid, a daemon: found through /proc on Linux). Safe to call more than once.
   */
  kill(): void;
}

/** The environment variable that marks every process an episode's agent started (escapees from its group included). */
export const AGENT_TOKEN_VARIABLE = 'STRATBENCH_AGENT_TOKEN';

/** Kills (SIGKILL) every process of this user whose environment carries `token` (Linux /proc; elsewhere nothing). */
function killMarked(token: string): void {
  const marker = Buffer.from(`${AGENT_TOKEN_VARIABLE}=${token}\0`);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`).includes(marker)) process.kill(Number(entry), 'SIGKILL');
    } catch {
      // Gone meanwhile, or another user's process.
    }
  }
}

/** Keeps the last `limit` characters of a stream. */
class Tail {
  private text = '';
  add(chunk: Buffer): void {
    this.text += chunk.toString('utf8');
    if (this.text.length > 2 * KEPT_OUTPUT_CHARS) this.text = this.text.slice(-KEPT_OUTPUT_CHARS);
  }
  toString(): string {
    return this.text.length > KEPT_OUTPUT_CHARS ? `…${this.text.slice(-KEPT_OUTPUT_CHARS)}` : this.text;
  }
}

/**
 * Runs `command` with /bin/sh in a new process group (detached), in `cwd` (default this process's), with `env` and a
 * fresh AGENT_TOKEN_VARIABLE added to this process's environment, stdin closed. Never throws: a process that could
 * not be spawned exits with code null, `spawnError` says why.
 */
export function startAgent(command: string, env: Record<string, string>, cwd?: string): AgentProcess {
  const started = performance.now();
  const stderr = new Tail();
  const stdout = new Tail();
  const token = randomUUID();
  const child = spawn('/bin/sh', ['-c', command], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // The user's time zone, not the sandbox's UTC (pinSandboxTimeZone): the agent is the user's program.
    env: { ...withHostTimeZone(process.env), ...env, [AGENT_TOKEN_VARIABLE]: token },
    ...(cwd !== undefined ? { cwd } : {}),
  });
  child.stderr?.on('data', (chunk: Buffer) => stderr.add(chunk));
  child.stdout?.on('data', (chunk: Buffer) => stdout.add(chunk));
  const kill = (): void => {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone.
      }
    }
    killMarked(token);
  };
  const agent: AgentProcess = { pid: child.pid, exited: undefined as unknown as Promise<AgentExit>, kill };
  agent.exited = new Promise<AgentExit>((resolve) => {
    const done = (code: number | null, signal: NodeJS.Signals | null): void =>
      resolve({
        code,
        signal: signal ?? shellSignal(code),
        stderr: stderr.toString(),
        stdout: stdout.toString(),
        wall_ms: Math.round(performance.now() - started),
      });
    child.once('error', (error) => {
      agent.spawnError = error.message;
      done(null, null);
    });
    // 'close' waits for the pipes; a process that left the group could hold them: 'exit' plus 500 ms is the bound,
    // then the pipes are destroyed so that they cannot keep the run's event loop alive.
    child.once('close', (code, signal) => done(code, signal));
    child.once('exit', (code, signal) => {
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        done(code, signal);
      }, 500).unref();
    });
  });
  return agent;
}

/** The signal a shell's exit code 128 + N names (SIGKILL for 137), or null. */
function shellSignal(code: number | null): NodeJS.Signals | null {
  if (code === null || code <= 128) return null;
  const found = Object.entries(constants.signals).find(([, number]) => number === code - 128);
  return found ? (found[0] as NodeJS.Signals) : null;
}
