// How the server asks V8's garbage collector to treat its objects, set once as it starts.
import { setFlagsFromString } from 'node:v8';

const PRETENURING = 'allocation-site-pretenuring';

/**
 * Turns off V8's allocation-site pretenuring for the process, unless it was started with a
 * `--allocation-site-pretenuring` flag of its own (either way): answers whether it did.
 *
 * V8 allocates the objects of a site straight into the old generation once nearly all of a
 * sample of them outlived a scavenge. The server keeps each event and result in a history of
 * the newest few thousand, just long enough for that, and so pretenured the sites of events,
 * results and messages. A pretenured object that dies still points at the young payloads and
 * messages made after it, and every scavenge kept and promoted those until the next full
 * collection: a five-node run through the whole server promoted 6 MB a scavenge, each pausing
 * it 15 ms, against 0.06 MB and 6 ms without pretenuring, and ran a third to a half faster
 * (docs/performance.md "Objects that die old").
 *
 * V8 reads this flag at each collection, so setting it after start-up, before any workload,
 * is enough. Allocation sites V8 pretenured before that stay as they are.
 */
export function turnOffPretenuring(execArgv: readonly string[] = process.execArgv): boolean {
  const chosen = execArgv.some((arg) => {
    const name = arg.replace(/^--(no-)?/, '').replaceAll('_', '-');
    return name === PRETENURING || name.startsWith(`${PRETENURING}=`);
  });
  if (chosen) return false;
  setFlagsFromString(`--no-${PRETENURING}`);
  return true;
}
