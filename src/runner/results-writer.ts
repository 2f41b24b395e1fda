// Appends episode records to <out>/episodes.jsonl as they finish, with back-pressure; writes run.json and summary.json.
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, writeFile, access, constants, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { EpisodeRecord } from './record.js';

/** Thrown when the results folder cannot be created or written (a usage error: exit 2). */
export class OutputFolderError extends Error {
  override readonly name = 'OutputFolderError';
}

/** Creates `dir` (recursively) and proves it is writable, before any episode runs. */
export async function prepareOutputFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
    const probe = join(dir, '.write-test');
    await writeFile(probe, '');
    await unlink(probe);
  } catch (error) {
    throw new OutputFolderError(`cannot write results to ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** Streams one JSON line per finished episode; each line is written whole (never buffered across episodes for long). */
export class EpisodeWriter {
  private readonly stream: WriteStream;
  private failed: Error | undefined;

  constructor(readonly path: string) {
    this.stream = createWriteStream(path, { flags: 'a' });
    this.stream.on('error', (error) => {
      this.failed = error;
    });
  }

  /** Appends a record; waits for the stream to drain when its buffer is full. Throws if the disk write failed. */
  async write(record: EpisodeRecord): Promise<void> {
    if (this.failed) throw this.failed;
    if (!this.stream.write(`${JSON.stringify(record)}\n`)) {
      await new Promise<void>((resolve) => this.stream.once('drain', resolve));
    }
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    if (this.failed) throw this.failed;
  }
}

/** Writes a JSON file atomically (tmp + rename). */
export async function writeJsonFile(path: string, value: unknown): Promise<void> {
  const tmp = `${path}.tmp`;
  await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`);
  await rename(tmp, path);
}
