import { describe, expect, it } from 'vitest';
import { StepFailure } from '../../../plugin-api/index.js';
import type { MessageProcessor, SubWorkflowRequest } from '../../../plugin-api/index.js';
import { createTestContext, message, processAll } from '../../testing/index.js';
import { subWorkflowPlugin } from './sub-workflow.js';

function subWorkflow(config: Record<string, unknown>): MessageProcessor {
  const runtime = subWorkflowPlugin.create!(subWorkflowPlugin.configSchema.parse(config), {
    nodeId: 'n',
    settings: undefined,
  });
  if ('run' in runtime) throw new Error('SUB_WORKFLOW is a per-message processor');
  return runtime;
}

/** A child workflow whose terminals receive the payload twice, tagged by session. */
const echoTwice = (request: SubWorkflowRequest) =>
  Promise.resolve([
    { first: request.payload, session: request.sessionId },
    { second: request.payload },
  ]);

describe('SUB_WORKFLOW', () => {
  it("runs the child in the caller's session with the payload and emits each result in order, with header subWorkflow", async () => {
    const ctx = createTestContext({ subWorkflow: echoTwice });
    const emits = await processAll(subWorkflow({ workflowId: 'child' }), [message(7)], ctx);
    expect(ctx.subWorkflowCalls).toEqual([
      { sessionId: 'session-1', workflowId: 'child', payload: 7 },
    ]);
    expect(emits).toEqual([
      { payload: { first: 7, session: 'session-1' }, headers: { subWorkflow: 'child' } },
      { payload: { second: 7 }, headers: { subWorkflow: 'child' } },
    ]);
  });

  it('runs the child in the configured session when sessionId is set', async () => {
    const ctx = createTestContext({ subWorkflow: echoTwice });
    await processAll(subWorkflow({ workflowId: 'child', sessionId: 'other' }), [message(1)], ctx);
    expect(ctx.subWorkflowCalls).toEqual([{ sessionId: 'other', workflowId: 'child', payload: 1 }]);
  });

  it('runs one child per message', async () => {
    const ctx = createTestContext({ subWorkflow: (request) => Promise.resolve([request.payload]) });
    const emits = await processAll(
      subWorkflow({ workflowId: 'child' }),
      [message('a'), message('b')],
      ctx,
    );
    expect(ctx.subWorkflowCalls).toHaveLength(2);
    expect(emits.map((emit) => emit.payload)).toEqual(['a', 'b']);
  });

  it('emits nothing when no terminal of the child received a message', async () => {
    const ctx = createTestContext({ subWorkflow: () => Promise.resolve([]) });
    expect(await processAll(subWorkflow({ workflowId: 'child' }), [message(1)], ctx)).toEqual([]);
  });

  it('fails without retry, naming the child, when the engine refuses the child as non-retryable (nesting deeper than 5)', async () => {
    const refusal = StepFailure.nonRetryable('Sub-workflow nesting deeper than 5');
    const ctx = createTestContext({ subWorkflow: () => Promise.reject(refusal) });
    await expect(
      processAll(subWorkflow({ workflowId: 'child' }), [message(1)], ctx),
    ).rejects.toMatchObject({
      name: 'StepFailure',
      retryable: false,
      message: "Sub-workflow 'child' did not complete: Sub-workflow nesting deeper than 5",
      cause: refusal,
    });
  });

  it('fails retryably when the child fails with a retryable failure or any other error', async () => {
    for (const error of [StepFailure.retryable('child timed out'), new Error('child failed')]) {
      const ctx = createTestContext({ subWorkflow: () => Promise.reject(error) });
      await expect(
        processAll(subWorkflow({ workflowId: 'child' }), [message(1)], ctx),
      ).rejects.toMatchObject({ name: 'StepFailure', retryable: true, cause: error });
    }
  });
});
