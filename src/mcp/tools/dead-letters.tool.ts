// Dead letters (docs/dead-letters.md): the tools of the REST calls under /api/dead-letters. A
// key limited to sessions lists the letters of a session it names, like every session tool;
// a letter named by id is answered as unknown when it is of a session the key does not reach.
import { z } from 'zod';
import { defineTool } from '../tool.js';
import { executionId, integer, nodeId, sessionId, workflowId } from './arguments.js';
import { id } from '../tool.js';

const letterId = id(
  'id',
  'A dead letter, as list_dead_letters answers it, e.g. "6b1f0c2e-8d3a-4e57-a9c4-2f1d7e6b5a90".',
);

export const deadLetterTools = [
  defineTool({
    name: 'list_dead_letters',
    role: 'VIEWER',
    // A named execution must be of the named session, as with every execution tool.
    scope: 'execution',
    description:
      'Lists messages nodes with onError DEAD_LETTER gave up on, newest first, by session, workflow, node and execution, one page at a time.',
    input: {
      sessionId: sessionId
        .optional()
        .describe(
          'Only letters of this session, e.g. "demo"; mandatory for a key limited to sessions.',
        ),
      workflowId: workflowId.optional().describe('Only letters of this workflow, e.g. "hello".'),
      nodeId: nodeId.optional().describe('Only letters of this node, e.g. "greet".'),
      executionId: executionId
        .optional()
        .describe('Only letters of this execution, e.g. "3f2c9a70-1d2e-4b8f-9c61-0a7d5e4b2c11".'),
      limit: integer('limit')
        .min(1, 'limit must be at least 1')
        .max(1000, 'limit must be at most 1000')
        .default(100)
        .describe('At most this many letters, 1 to 1000, e.g. 20; default 100.'),
      cursor: z
        .string()
        .optional()
        .describe('The nextCursor of the page before, e.g. "eyJjcmVhdGVkQXQiOi4uLn0".'),
    },
    run: (query, { deadLetters }, caller) => deadLetters.list(query, caller.sessions),
  }),
  defineTool({
    name: 'get_dead_letter',
    role: 'VIEWER',
    scope: 'open',
    description: 'Reads a dead letter: its message, error and every attempt made.',
    input: { id: letterId },
    run: ({ id }, { deadLetters }, caller) => deadLetters.get(id, caller.sessions),
  }),
  defineTool({
    name: 'redrive_dead_letter',
    role: 'OPERATOR',
    scope: 'open',
    description:
      "Runs a dead letter's node and what follows it again on its message alone, or on payload when given; answers the new execution and the letter marked with it.",
    input: {
      id: letterId,
      payload: z
        .unknown()
        .optional()
        .describe('A payload in place of the letter\'s own, e.g. {"amount": 5}.'),
    },
    run: ({ id, payload }, { deadLetters }, caller) =>
      deadLetters.redrive(id, payload, caller.actor, caller.sessions),
  }),
  defineTool({
    name: 'delete_dead_letter',
    role: 'OPERATOR',
    scope: 'open',
    description: 'Deletes a dead letter.',
    input: { id: letterId },
    run: async ({ id }, { deadLetters }, caller) => {
      await deadLetters.delete(id, caller.sessions);
      return { id };
    },
  }),
];
