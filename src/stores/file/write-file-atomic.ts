// Crash-safe file replacement: readers and a restart see the old content or the new, never a
// torn file, and a resolved write has reached the disk.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Every temporary file ends so; `open()` of a store deletes such leftovers of a crash. */
export const TEMPORARY_SUFFIX = '.tmp';

export function isNotFound(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

export function isAlreadyExisting(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'EEXIST';
}

export function randomSuffix(): string {
  return randomBytes(6).toString('hex');
}

/** Makes the directory's entries (created, renamed, removed files) durable. */
export async function syncDirectory(directory: string): Promise<void> {
  // Windows cannot open a directory for fsync; NTFS journals the entries itself.
  if (process.platform === 'win32') return;
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a uniquely named temporary file beside the target, fsyncs it, renames it over the
 * target and fsyncs the directory. The caller serialises writes to one target.
 */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const directory = path.dirname(file);
  const temporary = path.join(
    directory,
    `.${path.basename(file)}.${process.pid}.${randomSuffix()}${TEMPORARY_SUFFIX}`,
  );
  try {
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(directory);
}
