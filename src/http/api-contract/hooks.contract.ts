// Hook calls (docs/webhooks.md): open, guarded by the WEBHOOK_TRIGGER's own secret.
import { z } from 'zod';
import { ExecutionStateSchema } from './executions.contract.js';
import { envelope } from './operation.js';
import type { OperationTable } from './operation.js';

const HOOK_DESCRIPTION = [
  'Starts a saved workflow that has a WEBHOOK_TRIGGER, with the JSON body (if any) as the payload. No API key is needed.',
  'When the trigger has a `secret`, the call sends it as `X-Hook-Secret`, or signs the body: `X-Hook-Signature: sha256=<hex HMAC-SHA256 of the body>`; otherwise `401`.',
  'With `respond: async` (the default) the answer is `202` with the execution; with `respond: sync` the call waits for the first terminal message and answers `200` with its payload as `data`,',
  '`504` when none comes within `timeoutSeconds` (the run goes on), `502` when the run fails first. `X-Execution-ID` names the execution. `Idempotency-Key` works as on a start.',
].join(' ');

export const HOOK_OPERATIONS: OperationTable = {
  'POST /api/hooks/:sessionId/:workflowId': {
    operationId: 'callHook',
    summary: 'Call the hook of a workflow',
    description: HOOK_DESCRIPTION,
    tag: 'Executions',
    answers: {
      200: envelope(
        '`respond: sync`: the payload of the first terminal message, or null when the run completed without one',
        z.unknown().meta({ description: 'Any JSON' }),
      ),
      202: envelope(
        '`respond: async`: the execution accepted, RUNNING or QUEUED',
        ExecutionStateSchema,
      ),
    },
    errors: [401, 404, 429, 502, 504],
  },
};
