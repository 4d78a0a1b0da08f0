// The ends of a checkpoint file: its first line (the header) and the length without a tail
// torn by a crash mid-write.
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';

const READ_CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

export interface FirstLine {
  /** Without its newline; undefined when the file has no complete line. */
  readonly line: Buffer | undefined;
  readonly size: number;
  /** The file does not end on a newline: its last line was torn by a crash mid-write. */
  readonly torn: boolean;
}

export async function readFirstLine(file: string): Promise<FirstLine> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const pieces: Buffer[] = [];
    let position = 0;
    while (position < size) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, size - position));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      const piece = chunk.subarray(0, bytesRead);
      const newline = piece.indexOf(NEWLINE);
      if (newline !== -1) {
        pieces.push(piece.subarray(0, newline));
        return { line: Buffer.concat(pieces), size, torn: await tornAtEnd(handle, size) };
      }
      pieces.push(piece);
      position += bytesRead;
    }
    return { line: undefined, size, torn: size > 0 };
  } finally {
    await handle.close();
  }
}

/** Whether the file's last byte is not a newline: every write ends on one. */
async function tornAtEnd(handle: FileHandle, size: number): Promise<boolean> {
  const last = Buffer.alloc(1);
  const { bytesRead } = await handle.read(last, 0, 1, size - 1);
  return bytesRead === 1 && last[0] !== NEWLINE;
}

/** The length of the file up to and including its last newline: without a torn tail. */
export async function intactLength(handle: FileHandle, size: number): Promise<number> {
  const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, size));
  let end = size;
  while (end > 0) {
    const length = Math.min(chunk.length, end);
    const start = end - length;
    const { bytesRead } = await handle.read(chunk, 0, length, start);
    const newline = chunk.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (newline !== -1) return start + newline + 1;
    end = start;
  }
  return 0;
}
