// A file write that does not stop short: a single write call may take only part of a buffer.
import type { FileHandle } from 'node:fs/promises';

export async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    if (bytesWritten === 0) throw new Error('the file system accepted no bytes');
    offset += bytesWritten;
  }
}
