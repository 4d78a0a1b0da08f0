// What a file store found torn and skipped when it opened: the line a crash cut off
// mid-write. Nothing acknowledged is lost with it, but an operator should hear of it.

export interface SkippedLines {
  /** Lines skipped; each is the torn end of one file. */
  readonly lines: number;
  /** The files they were in. */
  readonly files: readonly string[];
}

/** Told once per opening of a store that skipped anything. */
export type SkippedLinesListener = (skipped: SkippedLines) => void;
