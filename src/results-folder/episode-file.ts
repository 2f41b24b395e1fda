// The episodes file of a results folder, plain (episodes.jsonl) or gzip-compressed (episodes.jsonl.gz): which one a
// folder holds, and the self-delimiting gzip members stratbench writes and reads back (decision 0015).
import { createReadStream } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { createGunzip, gunzip, gzip } from 'node:zlib';

export const EPISODES_FILE = 'episodes.jsonl';
export const EPISODES_GZ_FILE = 'episodes.jsonl.gz';

/**
 * Deflate level of the members stratbench writes: 3. On the core suite's episodes (1 MiB members) it is the cheapest
 * level in CPU — 16 µs an episode against 21 µs at level 1 and 37 µs at zlib's default 6 — and stores ~600 bytes
 * an episode (level 6: ~400); the deflating runs on libuv's thread pool, beside the main thread (decision 0015).
 */
export const GZIP_LEVEL = 3;

/**
 * zlib's output chunk for a member: 256 KiB, so a member comes back from the thread pool in one trip. With Node's
 * default (16 KiB) a 1 MiB member of core-suite lines (~88 KB deflated) came back ~6 times, a stream callback and a
 * new thread-pool task each: ~70 ms of the main thread's 6.5 s over 30,030 `--compress` episodes (profiled, issue 32).
 * At levels 1–9 the bytes are the same at any chunk size (level 0's stored blocks follow the output chunks; nothing
 * writes level 0). One chunk holds a member deflated to a quarter of its size; a larger one takes more trips.
 */
const GZIP_CHUNK_BYTES = 1 << 18;

/** Thrown by the readers below for a file that is not readable gzip (a message naming the file and the byte). */
export class EpisodeFileError extends Error {
  override readonly name = 'EpisodeFileError';
}

/** Where a folder's episodes are: the file's path, whether it is compressed, and whether it exists yet. */
export interface EpisodesLocation {
  path: string;
  compressed: boolean;
  exists: boolean;
}

/** Whether `path` exists; throws EpisodeFileError when it is not a regular file (a folder, a device, a pipe). */
const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    (found) => {
      // A device such as /dev/zero or /dev/full reads forever: read as episodes, it would never end (issue 29).
      if (!found.isFile()) throw new EpisodeFileError(`${path}: not a regular file (${found.isDirectory() ? 'a folder' : 'a device, pipe or socket'})`);
      return true;
    },
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );

/**
 * Which episodes file `dir` holds: episodes.jsonl.gz, else episodes.jsonl (also when neither exists yet: `exists`
 * false, `compressed` as `preferCompressed` says, for a writer about to create it). A folder holding both is an
 * error naming both (which one is the run's cannot be guessed). Never throws for bad input; a system error other
 * than ENOENT is returned as `{ error }` naming the path.
 */
export async function locateEpisodes(dir: string, preferCompressed = false): Promise<EpisodesLocation | { error: string }> {
  const plain = join(dir, EPISODES_FILE);
  const compressed = join(dir, EPISODES_GZ_FILE);
  let found: [boolean, boolean];
  try {
    found = await Promise.all([exists(plain), exists(compressed)]);
  } catch (error) {
    if (error instanceof EpisodeFileError) return { error: error.message };
    return { error: `${dir}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  if (found[0] && found[1]) {
    return {
      error:
        `${dir} holds both ${EPISODES_FILE} and ${EPISODES_GZ_FILE}: one folder holds one run's episodes in one of them; ` +
        `remove or move the one that is not this run's`,
    };
  }
  if (found[1]) return { path: compressed, compressed: true, exists: true };
  if (found[0]) return { path: plain, compressed: false, exists: true };
  return preferCompressed ? { path: compressed, compressed: true, exists: false } : { path: plain, compressed: false, exists: false };
}

// A member: the 10-byte gzip header with FEXTRA set, XLEN 8, one extra subfield "SB" (stratbench) of 4 bytes holding
// the member's total length (uint32 little-endian), the raw deflate data, CRC-32 and ISIZE (RFC 1952). gzip, zcat
// and zlib ignore the subfield and read the members as one concatenated stream; stratbench reads the length to walk
// members without inflating them (as BGZF's "BC" subfield does for bgzip).
const HEADER_BYTES = 20;
const TRAILER_BYTES = 8;
const MAX_MEMBER_BYTES = 0xffff_ffff;
/** ID1 ID2 CM FLG(FEXTRA) MTIME(0) XFL(0) OS(255: unknown), XLEN(8), SI1 SI2 ("SB") LEN(4); the member length follows. */
const OUR_HEADER = Buffer.from([0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 255, 8, 0, 0x53, 0x42, 4, 0]);

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * One gzip member holding `raw` (whole lines), compressed at `level` by zlib's gzip on libuv's thread pool — deflate
 * and CRC-32 both off the main thread, which only copies the compressed bytes behind stratbench's header. Throws
 * RangeError for a member over 4 GiB (one episode line never is).
 */
export async function compressMember(raw: Buffer, level = GZIP_LEVEL): Promise<Buffer> {
  const gzipped = await gzipAsync(raw, { level, chunkSize: GZIP_CHUNK_BYTES });
  // zlib writes a 10-byte header without optional fields (FLG 0); the deflate data, CRC-32 and ISIZE follow.
  if (gzipped[3] !== 0) throw new Error(`zlib wrote a gzip header with flags ${gzipped[3]}; expected none`);
  const body = gzipped.subarray(10);
  const total = HEADER_BYTES + body.length;
  if (total > MAX_MEMBER_BYTES) throw new RangeError(`a gzip member of ${total} bytes is over 4 GiB`);
  const member = Buffer.allocUnsafe(total);
  OUR_HEADER.copy(member, 0);
  member.writeUInt32LE(total, 16);
  body.copy(member, HEADER_BYTES);
  return member;
}

/** The member length a header at the start of `header` declares, 'foreign' for a gzip header without it, or null for no gzip header. */
function declaredLength(header: Buffer): number | 'foreign' | null {
  if (header.length < 10 || header[0] !== 0x1f || header[1] !== 0x8b || header[2] !== 8) return null;
  const ours =
    header.length >= HEADER_BYTES &&
    header[3] === 4 &&
    header.readUInt16LE(10) === 8 &&
    header[12] === 0x53 &&
    header[13] === 0x42 &&
    header.readUInt16LE(14) === 4;
  return ours ? header.readUInt32LE(16) : 'foreign';
}

/** What reading an episodes file found at its end: where its complete part ends, and a torn tail's warning. */
export interface ChunkReport {
  /** Bytes of the file up to the end of its last complete member (gz) — resume truncates to it; undefined for jsonl (counted by lines). */
  completeBytes?: number;
  /** A torn last member (a run killed while writing it), named with its byte offset. */
  warning?: string;
}

/**
 * The decompressed bytes of episodes.jsonl.gz at `path`, one member at a time (memory: one member, ~1 MiB of
 * lines), into `report` as it ends. A last member cut short (its header or data shorter than the length it
 * declares: the writer was killed) is skipped with a warning and `completeBytes` set to where it starts, so it never
 * counts and `--resume` cuts it off. Members without stratbench's length (the file was gzipped by another tool) are
 * read to the end of the file with zlib's gunzip. Throws EpisodeFileError for a file that is not gzip, a corrupt
 * member before the last, or a foreign stream that ends early; the system error when it cannot be read.
 */
export async function* gzipChunks(path: string, report: ChunkReport): AsyncGenerator<Buffer> {
  const handle = await open(path, 'r');
  // One member is inflated on the thread pool while the caller reads the one before (two cores: ~40% faster on a
  // 760 MB file); a member's error is still raised after every member before it was yielded.
  type Inflated = { ok: true; text: Buffer } | { ok: false; error: Error };
  let pending: { offset: number; inflated: Promise<Inflated> } | undefined;
  async function* yieldPending(): AsyncGenerator<Buffer> {
    if (pending === undefined) return;
    const { offset, inflated } = pending;
    pending = undefined;
    const result = await inflated;
    if (!result.ok) throw new EpisodeFileError(`${path}: byte ${offset}: corrupt gzip member (${result.error.message})`);
    yield result.text;
  }
  try {
    const size = (await handle.stat()).size;
    let offset = 0;
    while (offset < size) {
      let member: Buffer;
      try {
        const header = Buffer.alloc(Math.min(HEADER_BYTES, size - offset));
        await readFully(handle, path, header, offset);
        const remaining = size - offset;
        const known = Math.min(remaining, OUR_HEADER.length);
        if (remaining < HEADER_BYTES && header.subarray(0, known).equals(OUR_HEADER.subarray(0, known))) {
          report.warning = `${path}: incomplete last gzip member at byte ${offset} (a run interrupted while writing?) — its ${remaining} byte(s) skipped`;
          break;
        }
        const length = declaredLength(header);
        if (length === null) throw new EpisodeFileError(`${path}: byte ${offset}: not gzip data (expected a gzip member header)`);
        if (length === 'foreign') {
          yield* yieldPending();
          yield* foreignChunks(path, offset);
          offset = size;
          break;
        }
        if (length < HEADER_BYTES + TRAILER_BYTES) throw new EpisodeFileError(`${path}: byte ${offset}: gzip member declares an impossible length ${length}`);
        if (length > remaining) {
          report.warning = `${path}: incomplete last gzip member at byte ${offset} (a run interrupted while writing?) — its ${remaining} byte(s) skipped`;
          break;
        }
        member = Buffer.allocUnsafe(length);
        await readFully(handle, path, member, offset);
      } catch (error) {
        yield* yieldPending();
        throw error;
      }
      const started = {
        offset,
        inflated: gunzipAsync(member).then(
          (text): Inflated => ({ ok: true, text }),
          (error: unknown): Inflated => ({ ok: false, error: error as Error }),
        ),
      };
      yield* yieldPending();
      pending = started;
      offset += member.length;
    }
    yield* yieldPending();
    report.completeBytes = offset;
  } finally {
    pending = undefined;
    await handle.close();
  }
}

/** Fills `buffer` from byte `offset` of the file (a read may return less than asked); throws EpisodeFileError if the file ends first. */
async function readFully(handle: FileHandle, path: string, buffer: Buffer, offset: number): Promise<void> {
  for (let filled = 0; filled < buffer.length; ) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, offset + filled);
    if (bytesRead === 0) throw new EpisodeFileError(`${path}: byte ${offset + filled}: the file ended while it was read (truncated by another process?)`);
    filled += bytesRead;
  }
}

/** Decompresses `path` from byte `start` to its end as concatenated gzip members (zlib's gunzip); an early end or bad data throws EpisodeFileError. */
async function* foreignChunks(path: string, start: number): AsyncGenerator<Buffer> {
  const inflated = createGunzip();
  // pipeline destroys the gunzip with a read error too, so the loop below ends with it either way.
  pipeline(createReadStream(path, { start }), inflated, () => undefined);
  try {
    for await (const chunk of inflated as AsyncIterable<Buffer>) yield chunk;
  } catch (error) {
    throw new EpisodeFileError(`${path}: gzip data from byte ${start} cannot be read to its end (${(error as Error).message})`);
  }
}

/** Where one gzip member is: its first byte and length in the file, and where its text starts in the decompressed text. */
export interface GzipMember {
  byte: number;
  length: number;
  textByte: number;
}

/**
 * The members of episodes.jsonl.gz at `path`, found by walking stratbench's headers (each declares its length) and
 * reading each member's ISIZE trailer — nothing is inflated, so indexing a 1 GB file reads ~40 bytes a MiB member.
 * `foreignAt`: the byte where members without stratbench's length start (a file gzipped by another tool; its text from
 * there is only reachable by inflating it from that byte), or null. A torn last member is left out (as gzipChunks
 * skips it). ISIZE is the text's length mod 2³²: exact for our members, which hold ~1 MiB of lines. Throws
 * EpisodeFileError for a file that is not gzip; the system error when it cannot be read.
 */
export async function gzipMembers(path: string): Promise<{ members: GzipMember[]; foreignAt: number | null; foreignTextByte: number }> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const members: GzipMember[] = [];
    let offset = 0;
    let textByte = 0;
    while (offset + HEADER_BYTES <= size) {
      const header = Buffer.alloc(HEADER_BYTES);
      await readFully(handle, path, header, offset);
      const length = declaredLength(header);
      if (length === null) throw new EpisodeFileError(`${path}: byte ${offset}: not gzip data (expected a gzip member header)`);
      if (length === 'foreign') return { members, foreignAt: offset, foreignTextByte: textByte };
      if (length < HEADER_BYTES + TRAILER_BYTES || length > size - offset) break;
      const trailer = Buffer.alloc(4);
      await readFully(handle, path, trailer, offset + length - 4);
      members.push({ byte: offset, length, textByte });
      textByte += trailer.readUInt32LE(0);
      offset += length;
    }
    return { members, foreignAt: null, foreignTextByte: textByte };
  } finally {
    await handle.close();
  }
}

/** Inflates one member read from `handle` (see gzipMembers). Throws EpisodeFileError for corrupt data. */
export async function inflateMember(handle: FileHandle, path: string, member: GzipMember): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(member.length);
  await readFully(handle, path, bytes, member.byte);
  try {
    return await gunzipAsync(bytes);
  } catch (error) {
    throw new EpisodeFileError(`${path}: byte ${member.byte}: corrupt gzip member (${(error as Error).message})`);
  }
}

/**
 * The text of a foreign gzip stream (see gzipMembers) from file byte `start`, inflated until it holds text byte `end`
 * (relative to the stream's start) or the stream ends; both streams are closed before it returns. Throws
 * EpisodeFileError for data that cannot be inflated.
 */
export async function inflateForeignPrefix(path: string, start: number, end: number): Promise<Buffer> {
  const file = createReadStream(path, { start });
  const inflated = createGunzip();
  pipeline(file, inflated, () => undefined);
  const parts: Buffer[] = [];
  let have = 0;
  try {
    for await (const chunk of inflated as AsyncIterable<Buffer>) {
      parts.push(chunk);
      have += chunk.length;
      if (have >= end) break;
    }
  } catch (error) {
    throw new EpisodeFileError(`${path}: gzip data from byte ${start} cannot be read (${(error as Error).message})`);
  } finally {
    file.destroy();
    inflated.destroy();
  }
  return Buffer.concat(parts);
}
