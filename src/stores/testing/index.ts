// What the stores' tests share. Excluded from the build (tsconfig.build.json).
import { fileURLToPath } from 'node:url';

/**
 * The child process of the file store's crash test (`crash-writer.ts`): run as a script, never
 * imported, because it writes until the test kills it.
 */
export const crashWriterPath = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));
