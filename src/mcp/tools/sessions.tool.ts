// Sessions and workflows (SPEC "Workflow and session calls", "Versioning"; CONTRACT 4).
import { z } from 'zod';
import { workflowLayoutBodySchema } from '../../services/index.js';
import { defineTool, items } from '../tool.js';
import { newSession, sessionId, version, workflowDefinition, workflowId } from './arguments.js';

const session = { sessionId };
const workflow = { ...session, workflowId };

export const sessionTools = [
  defineTool({
    name: 'list_sessions',
    role: 'VIEWER',
    scope: 'global',
    description: 'Lists every session with its workflows.',
    input: {},
    run: async (_input, { sessions }) => items(await sessions.listSessions()),
  }),
  defineTool({
    name: 'get_session_details',
    role: 'VIEWER',
    scope: 'session',
    description: 'Reads a session: name, initiator, description and its workflow ids.',
    input: session,
    run: ({ sessionId }, { sessions }) => sessions.getSession(sessionId),
  }),
  defineTool({
    name: 'get_workflow_details',
    role: 'VIEWER',
    scope: 'session',
    description:
      'Reads the current definition of a workflow (WorkflowDefinition: nodes, edges, config).',
    input: workflow,
    run: ({ sessionId, workflowId }, { sessions }) => sessions.getWorkflow(sessionId, workflowId),
  }),
  defineTool({
    name: 'get_workflow_layout',
    role: 'VIEWER',
    scope: 'session',
    description:
      'Reads where the editor placed the nodes of the current version of a workflow: positions by node id ({ x, y }), empty when none were saved.',
    input: workflow,
    run: ({ sessionId, workflowId }, { sessions }) => sessions.getLayout(sessionId, workflowId),
  }),
  defineTool({
    name: 'list_workflow_versions',
    role: 'VIEWER',
    scope: 'session',
    description: 'Lists the saved versions of a workflow, newest first, with author and note.',
    input: workflow,
    run: async ({ sessionId, workflowId }, { sessions }) =>
      items(await sessions.listVersions(sessionId, workflowId)),
  }),
  defineTool({
    name: 'diff_workflow_versions',
    role: 'VIEWER',
    scope: 'session',
    description: 'Compares two saved versions: nodes and edges added, removed and changed.',
    input: {
      ...workflow,
      from: version.describe('The older version to compare, e.g. 1.'),
      to: version.describe('The newer version to compare, e.g. 2.'),
    },
    run: ({ sessionId, workflowId, from, to }, { sessions }) =>
      sessions.diffVersions(sessionId, workflowId, from, to),
  }),
  defineTool({
    name: 'rollback_workflow',
    role: 'OPERATOR',
    scope: 'session',
    description: 'Makes a saved version current again, saving it as a new version.',
    input: { ...workflow, version },
    run: ({ sessionId, workflowId, version: target }, { sessions }, caller) =>
      sessions.rollback(sessionId, workflowId, target, caller.author),
  }),
  defineTool({
    name: 'note_workflow_version',
    role: 'OPERATOR',
    scope: 'session',
    description: 'Attaches a note to a saved version of a workflow.',
    input: {
      ...workflow,
      version,
      note: z
        .string({ error: 'note must be a string' })
        .max(1024, 'note must be at most 1024 characters')
        .describe('The note, at most 1024 characters, e.g. "the one that worked".'),
    },
    run: ({ sessionId, workflowId, version: target, note }, { sessions }) =>
      sessions.noteVersion(sessionId, workflowId, target, note),
  }),
  defineTool({
    name: 'create_session',
    role: 'ADMIN',
    scope: 'global',
    description:
      'Creates a session (name and initiator are mandatory), optionally with workflows. See get_session_creation_instructions.',
    input: newSession,
    run: (input, { sessions }, caller) => sessions.createSession(input, caller.author),
  }),
  defineTool({
    name: 'delete_session',
    role: 'ADMIN',
    scope: 'session',
    description: 'Deletes a session and its workflows.',
    input: session,
    run: async ({ sessionId }, { sessions }) => {
      await sessions.deleteSession(sessionId);
      return { sessionId };
    },
  }),
  defineTool({
    name: 'define_workflow',
    role: 'ADMIN',
    scope: 'session',
    description:
      'Defines or replaces a workflow of a session: each call saves a new version (at most 20 are kept).',
    input: { ...session, workflow: workflowDefinition },
    run: ({ sessionId, workflow: definition }, { sessions }, caller) =>
      sessions.defineWorkflow(sessionId, definition, caller.author, caller.sessions),
  }),
  defineTool({
    name: 'save_workflow_layout',
    role: 'ADMIN',
    scope: 'session',
    description:
      'Replaces where the editor places the nodes of a workflow, without saving a version: every position names a node of the current version; nodes left out are laid out by the editor.',
    input: {
      ...workflow,
      positions: workflowLayoutBodySchema.shape.positions.describe(
        'Positions by node id of the current version, e.g. {"start": {"x": 0, "y": 0}, "greet": {"x": 240, "y": 0}}.',
      ),
    },
    run: ({ sessionId, workflowId, positions }, { sessions }) =>
      sessions.saveLayout(sessionId, workflowId, positions),
  }),
  defineTool({
    name: 'delete_workflow',
    role: 'ADMIN',
    scope: 'session',
    description: 'Deletes a workflow of a session with its versions.',
    input: workflow,
    run: async ({ sessionId, workflowId }, { sessions }) => {
      await sessions.deleteWorkflow(sessionId, workflowId);
      return { sessionId, workflowId };
    },
  }),
  defineTool({
    name: 'validate_workflow',
    role: 'ADMIN',
    scope: 'global',
    description:
      'Checks a draft workflow by the rules of execution without saving it: valid or not, why, and the output ports of each node.',
    input: { workflow: workflowDefinition },
    run: ({ workflow: definition }, { sessions }) => sessions.validate(definition),
  }),
];
