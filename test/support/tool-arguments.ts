// Plausible arguments for any tool of the tool endpoint, by the names SPEC and CONTRACT give
// them, for tests that call every tool.

export interface ToolTarget {
  readonly sessionId: string;
  readonly executionId: string;
  readonly workflowId: string;
  readonly workflow: unknown;
}

/** A tool's JSON Schema of its input, as the server or a client lists it. */
interface InputSchema {
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
}

/** A value for every required argument; the session whenever the tool takes one. */
export function toolArguments(inputSchema: object, target: ToolTarget): Record<string, unknown> {
  const schema = inputSchema as InputSchema;
  const values: Record<string, unknown> = {
    ...target,
    nodeId: 'wait',
    version: 1,
    from: 1,
    to: 1,
    note: 'a note',
    action: 'PAUSE',
    name: 'n',
    initiator: 'i',
    approved: true,
    type: 'MAPPER',
    priority: 1,
    positions: {},
  };
  const args: Record<string, unknown> = {};
  for (const name of schema.required ?? []) args[name] = values[name];
  // Session and execution tools take the session a limited key must name.
  if ('sessionId' in (schema.properties ?? {})) args.sessionId = target.sessionId;
  return args;
}
