// A file write that does not stop short: a single write call may take only part of the data.
import type { FileHandle } from 'node:fs/promises';

export async function writeAll(
  handle: FileHandle,
  data: Buffer | readonly Buffer[],
): Promise<void> {
  let rest: Buffer[] = Buffer.isBuffer(data) ? [data] : data.filter((chunk) => chunk.length > 0);
  while (rest.length > 0) {
    const { bytesWritten } =
      rest.length === 1 ? await handle.write(rest[0] as Buffer) : await handle.writev(rest);
    if (bytesWritten === 0) throw new Error('the file system accepted no bytes');
    rest = afterWritten(rest, bytesWritten);
  }
}

/** What is left of `chunks` once their first `written` bytes are written. */
function afterWritten(chunks: readonly Buffer[], written: number): Buffer[] {
  let skipped = written;
  const left: Buffer[] = [];
  for (const chunk of chunks) {
    if (skipped >= chunk.length) {
      skipped -= chunk.length;
      continue;
    }
    left.push(skipped === 0 ? chunk : chunk.subarray(skipped));
    skipped = 0;
  }
  return left;
}
