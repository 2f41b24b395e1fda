// Reading one episode line back from where a scan saw it (LineAt), in episodes.jsonl or episodes.jsonl.gz, without
// reading the file from its start: positional reads (plain), one member inflated (stratbench's gzip members).
import { type FileHandle, open, stat } from 'node:fs/promises';
import { EpisodeFileError, type GzipMember, gzipMembers, inflateForeignPrefix, inflateMember } from './episode-file.js';
import type { LineAt } from './episode-stream.js';

/** Reads lines of one episodes file by position; `close()` releases the file. */
export interface EpisodeLineReader {
  /** The line's text (no newline). Throws EpisodeFileError when the file no longer holds it (changed since it was indexed). */
  read(at: LineAt): Promise<string>;
  /** Whether the file's size or modification time differ from when the reader was opened (a resumed run appended). */
  changed(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Opens `path` (episodes.jsonl, or episodes.jsonl.gz when it ends in .gz) for reading lines by position. Plain: one
 * positional read per line. Gzip: the member holding the line is found in the member table (gzipMembers: headers and
 * trailers only) and inflated alone — ~1 MiB — with the last inflated member kept, so reading lines in file order
 * inflates each member once; a line running over a member's end is completed from the next. Text after a foreign
 * gzip stream's start (a file gzipped by another tool) is inflated from that start on each read (slow, but correct).
 * Throws the system error when the file cannot be opened, EpisodeFileError for a file that is not gzip.
 */
export async function openEpisodeLineReader(path: string): Promise<EpisodeLineReader> {
  const opened = await stat(path);
  const handle: FileHandle = await open(path, 'r');
  const compressed = path.endsWith('.gz');
  const table = compressed ? await gzipMembers(path) : null;
  let cached: { member: GzipMember; text: Buffer } | null = null;
  const memberText = async (member: GzipMember): Promise<Buffer> => {
    if (cached?.member !== member) cached = { member, text: await inflateMember(handle, path, member) };
    return cached.text;
  };
  /** The index of the member whose text holds `textByte` (binary search), or -1 when none of ours does. */
  const memberAt = (members: GzipMember[], textByte: number): number => {
    let low = 0;
    let high = members.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if ((members[middle] as GzipMember).textByte <= textByte) {
        found = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found;
  };
  const gone = (at: LineAt) => new EpisodeFileError(`${path}: no episode line at byte ${at.start} (${at.length} bytes): the file changed since it was indexed`);
  const readCompressed = async (at: LineAt): Promise<Buffer> => {
    const { members, foreignAt, foreignTextByte } = table!;
    if (foreignAt !== null && at.start >= foreignTextByte) {
      const text = await inflateForeignPrefix(path, foreignAt, at.start - foreignTextByte + at.length);
      return text.subarray(at.start - foreignTextByte, at.start - foreignTextByte + at.length);
    }
    const parts: Buffer[] = [];
    let needed = at.length;
    let position = at.start;
    for (let index = memberAt(members, at.start); needed > 0; index += 1) {
      const member = members[index];
      if (index < 0 || member === undefined) throw gone(at);
      const text = await memberText(member);
      const from = position - member.textByte;
      const part = text.subarray(from, from + needed);
      if (part.length === 0 && from >= text.length && index + 1 >= members.length) throw gone(at);
      parts.push(part);
      needed -= part.length;
      position += part.length;
    }
    return Buffer.concat(parts);
  };
  return {
    async read(at) {
      let bytes: Buffer;
      if (compressed) bytes = await readCompressed(at);
      else {
        bytes = Buffer.allocUnsafe(at.length);
        const { bytesRead } = await handle.read(bytes, 0, at.length, at.start);
        if (bytesRead !== at.length) throw gone(at);
      }
      if (bytes.length !== at.length) throw gone(at);
      return bytes.toString('utf8');
    },
    async changed() {
      const now = await stat(path).catch(() => null);
      return now === null || now.size !== opened.size || now.mtimeMs !== opened.mtimeMs;
    },
    close: () => handle.close(),
  };
}
