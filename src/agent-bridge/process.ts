// The agent's process: started in its own process group, its output kept (the tail), the whole group killed.
import { spawn } from 'node:child_process';
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

/** A started agent process. `exited` settles once it has exited and its pipes are closed (or 5 s after a kill). */
export interface AgentProcess {
  pid: number | undefined;
  exited: Promise<AgentExit>;
  /** Kills the whole process group (SIGKILL): the agent and anything it started. Safe to call twice. */
  kill(): void;
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
 * Runs `command` with /bin/sh in a new process group (detached), with `env` added to this process's environment,
 * stdin closed. Never throws: a process that could not be spawned exits with code null and the reason in stderr.
 */
export function startAgent(command: string, env: Record<string, string>): AgentProcess {
  const started = performance.now();
  const stderr = new Tail();
  const stdout = new Tail();
  const child = spawn('/bin/sh', ['-c', command], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  child.stderr?.on('data', (chunk: Buffer) => stderr.add(chunk));
  child.stdout?.on('data', (chunk: Buffer) => stdout.add(chunk));
  let killed = false;
  const kill = (): void => {
    if (killed || child.pid === undefined) return;
    killed = true;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // ESRCH: the group is already gone.
    }
  };
  const exited = new Promise<AgentExit>((resolve) => {
    const done = (code: number | null, signal: NodeJS.Signals | null): void =>
      resolve({
        code,
        signal: signal ?? shellSignal(code),
        stderr: stderr.toString(),
        stdout: stdout.toString(),
        wall_ms: Math.round(performance.now() - started),
      });
    child.once('error', (error) => {
      stderr.add(Buffer.from(`\nstratbench: could not start the agent: ${error.message}`));
      done(null, null);
    });
    // 'close' waits for the pipes; a grandchild that escaped the group could hold them: 'exit' plus 5 s is the bound.
    child.once('close', (code, signal) => done(code, signal));
    child.once('exit', (code, signal) => {
      setTimeout(() => done(code, signal), 5_000).unref();
    });
  });
  return { pid: child.pid, exited, kill };
}

/** The signal a shell's exit code 128 + N names (SIGKILL for 137), or null. */
function shellSignal(code: number | null): NodeJS.Signals | null {
  if (code === null || code <= 128) return null;
  const found = Object.entries(constants.signals).find(([, number]) => number === code - 128);
  return found ? (found[0] as NodeJS.Signals) : null;
}
