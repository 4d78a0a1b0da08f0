// A line diff of two texts (longest common subsequence): what the versions page shows under
// the graphs, each line marked `+`, `-` or unchanged.

export type LineChange = 'same' | 'added' | 'removed';

export interface DiffLine {
  readonly change: LineChange;
  readonly text: string;
}

export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // common[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const common = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i -= 1) {
    const row = common[i] ?? [];
    const below = common[i + 1] ?? [];
    for (let j = b.length - 1; j >= 0; j -= 1) {
      row[j] = a[i] === b[j] ? (below[j + 1] ?? 0) + 1 : Math.max(below[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const left = a[i];
    const right = b[j];
    if (left !== undefined && left === right) {
      lines.push({ change: 'same', text: left });
      i += 1;
      j += 1;
    } else if (
      left !== undefined &&
      (right === undefined || (common[i + 1]?.[j] ?? 0) >= (common[i]?.[j + 1] ?? 0))
    ) {
      // What was removed comes before what replaces it.
      lines.push({ change: 'removed', text: left });
      i += 1;
    } else {
      lines.push({ change: 'added', text: right ?? '' });
      j += 1;
    }
  }
  return lines;
}
