// Prompts the endpoint offers (MCP "Prompts"): designing a workflow from the plugin catalogue,
// debugging a failed run from its record and log lines, and explaining a workflow. Each reads
// what the matching tools read, under their access rules.
import type { Principal } from '../auth/index.js';
import { AppError } from '../core/index.js';
import type { AccessRule, ToolDeps } from './tool.js';
import { checkAccess, checkRole } from './tool-access.js';

export interface PromptArgumentSpec {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
}

export interface PromptSpec extends AccessRule {
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly PromptArgumentSpec[];
  /** The text of the one user message the prompt answers. */
  text(args: Readonly<Record<string, string>>, deps: ToolDeps): Promise<string>;
}

/** Log lines a debugging prompt quotes at most: the last ones, where failures show. */
const QUOTED_LOG_LINES = 50;

const json = (value: unknown): string => JSON.stringify(value, null, 2);

export const PROMPTS: readonly PromptSpec[] = [
  {
    name: 'design_workflow',
    noun: 'prompt',
    role: 'VIEWER',
    scope: 'global',
    title: 'Design a workflow',
    description:
      'Designs a workflow for a goal from the plugin catalogue of this server, checked with validate_workflow before it is saved.',
    arguments: [
      {
        name: 'goal',
        description: 'What the workflow should do, e.g. "fetch a URL every hour and notify"',
        required: true,
      },
    ],
    text: ({ goal = '' }, { plugins }) => {
      const catalogue = plugins.list().map((plugin) => ({
        type: plugin.type,
        kind: plugin.kind,
        description: plugin.description,
        ports: plugin.ports,
        configSchema: plugin.configSchema,
      }));
      return Promise.resolve(
        [
          `Design a workflow for this goal: ${goal}`,
          '',
          'A workflow is { workflowId, description, nodes: [{ nodeId, type, config? }], edges: [{ source, target, sourcePort? }] }, a directed acyclic graph with at least one trigger node.',
          'Use only these node types of this server (kind, ports and configuration JSON Schema):',
          json(catalogue),
          '',
          'Check the draft with the validate_workflow tool and fix what it reports until it answers valid: true; then save it with define_workflow and start it with start_workflow.',
        ].join('\n'),
      );
    },
  },
  {
    name: 'debug_failed_run',
    noun: 'prompt',
    role: 'VIEWER',
    scope: 'execution',
    title: 'Debug a failed run',
    description:
      'Explains why an execution failed from its record, the failing node, its error and the log lines, and proposes a fix.',
    arguments: [
      {
        name: 'executionId',
        description: 'The execution to debug, e.g. "0f8c2a4e-..." (see get_workflow_history)',
        required: true,
      },
    ],
    text: ({ executionId = '' }, { executions }) => {
      const record = executions.read(executionId);
      const failing = Object.entries(record.nodes)
        .filter(([, node]) => node.status === 'FAILURE' || node.error !== null)
        .map(([nodeId, node]) => ({ nodeId, status: node.status, error: node.error }));
      const logs = executions.logs(executionId, {}).slice(-QUOTED_LOG_LINES);
      return Promise.resolve(
        [
          `Execution ${executionId} of workflow ${record.workflowId} (session ${record.sessionId}) ended ${record.status}.`,
          `Error: ${record.error ?? 'none recorded'}`,
          `Failing nodes: ${failing.length === 0 ? 'none recorded' : json(failing)}`,
          '',
          'Execution record:',
          json(record),
          '',
          `Last ${logs.length} log lines:`,
          logs
            .map((line) => `${line.timestamp} ${line.level} ${line.nodeId}: ${line.message}`)
            .join('\n'),
          '',
          'Explain the cause of the failure and propose a fix (a changed node configuration, a retry with control_workflow RETRY, or a workflow change checked with validate_workflow).',
        ].join('\n'),
      );
    },
  },
  {
    name: 'explain_workflow',
    noun: 'prompt',
    role: 'VIEWER',
    scope: 'session',
    title: 'Explain a workflow',
    description: 'Explains what a workflow does, node by node, from its current definition.',
    arguments: [
      {
        name: 'sessionId',
        description: 'The session of the workflow, e.g. "demo"',
        required: true,
      },
      { name: 'workflowId', description: 'The workflow to explain, e.g. "hello"', required: true },
    ],
    text: async ({ sessionId = '', workflowId = '' }, { sessions, plugins }) => {
      const definition = await sessions.getWorkflow(sessionId, workflowId);
      const types = [...new Set(definition.nodes.map((node) => node.type))];
      const described = types.map((type) => ({
        type,
        description: plugins.describe(type)?.description ?? 'not in this build',
      }));
      return [
        `Explain what workflow ${workflowId} of session ${sessionId} does, node by node along its edges, and what a start payload should look like.`,
        '',
        'Definition:',
        json(definition),
        '',
        'Node types it uses:',
        json(described),
      ].join('\n');
    },
  },
];

/** The prompt named; undefined for a name of no prompt. */
export function findPrompt(name: string): PromptSpec | undefined {
  return PROMPTS.find((prompt) => prompt.name === name);
}

/** Checks the caller and the arguments as the matching tools would, then writes the text. */
export async function renderPrompt(
  prompt: PromptSpec,
  args: Readonly<Record<string, string>>,
  principal: Principal | null,
  deps: ToolDeps,
): Promise<string> {
  checkRole(prompt, principal);
  const missing = prompt.arguments.filter(
    (argument) => argument.required && (args[argument.name] ?? '') === '',
  );
  if (missing.length > 0) {
    throw new AppError('VALIDATION_FAILED', {
      fieldErrors: missing.map((argument) => ({
        field: argument.name,
        message: `${argument.name} is mandatory`,
      })),
    });
  }
  checkAccess(prompt, args, principal, deps);
  return prompt.text(args, deps);
}
