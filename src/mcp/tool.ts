// A tool of the endpoint: its name, the role it needs (SPEC "Tool endpoint"), what a
// session-limited key must show to use it, its input and what it does. Tools answer the data
// of the REST call they stand for (CONTRACT 4).
import { z } from 'zod';
import type { Role } from '../auth/index.js';
import { AppError } from '../core/index.js';
import { parseFields } from '../engine/index.js';
import type { PluginRegistry } from '../plugins/index.js';
import type { DeadLetterService, ExecutionService, SessionService } from '../services/index.js';

/**
 * What a session-limited key needs (SPEC "Roles"): `session` and `execution` tools take a
 * `sessionId` argument it may reach (an execution must belong to it), `global` tools are
 * refused to it, `open` tools answer anyone.
 */
export type ToolScope = 'session' | 'execution' | 'global' | 'open';

export interface ToolDeps {
  readonly sessions: SessionService;
  readonly executions: ExecutionService;
  readonly plugins: PluginRegistry;
  readonly deadLetters: DeadLetterService;
}

/** Who calls a tool, for the audit and for version authors. */
export interface ToolCaller {
  /** SPEC "Audit actor naming"; null when none is recorded. */
  readonly actor: string | null;
  /** The author of versions the call saves: the actor, or `anonymous`. */
  readonly author: string;
  /** Sessions the caller's key may reach; null: every session. */
  readonly sessions: readonly string[] | null;
}

/** The arguments every scoped tool reads, once parsed. */
export interface ToolArguments {
  readonly sessionId?: string | undefined;
  readonly executionId?: string | undefined;
}

/** What a caller needs to use a tool, resource or prompt (SPEC "Roles"). */
export interface AccessRule {
  readonly name: string;
  readonly role: Role;
  readonly scope: ToolScope;
  /** How refusals name it; `tool` when left out. */
  readonly noun?: 'tool' | 'resource' | 'prompt';
}

/** The level of a log notification (MCP `notifications/message`). */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error';

/** What an approval question answers: approve or reject, with an optional comment. */
export interface ApprovalAnswer {
  readonly approved: boolean;
  readonly comment?: string | undefined;
}

/**
 * What the connection offers a running tool call: progress and log notifications to the
 * client, and a question to the client's user where the client can ask one.
 */
export interface ToolContext {
  readonly signal: AbortSignal;
  progress(done: number, total: number, message: string): void;
  log(level: LogLevel, logger: string, data: unknown): void;
  /** Asks the user; undefined when the client cannot ask, declined or cancelled. */
  readonly ask: ((question: string) => Promise<ApprovalAnswer | undefined>) | undefined;
}

export interface Tool extends AccessRule {
  readonly description: string;
  /** JSON Schema of the arguments, as `tools/list` shows it. */
  readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
  /** The parsed arguments; a `VALIDATION_FAILED` error names every field at fault. */
  parse(args: unknown): ToolArguments;
  call(input: ToolArguments, deps: ToolDeps, caller: ToolCaller, context: ToolContext): unknown;
}

/** A tool whose `run` gets its arguments typed by `input`, a strict object schema. */
export function defineTool<Shape extends z.ZodRawShape>(spec: {
  readonly name: string;
  readonly role: Role;
  readonly scope: ToolScope;
  readonly description: string;
  readonly input: Shape;
  run(
    input: z.output<z.ZodObject<Shape, z.core.$strict>>,
    deps: ToolDeps,
    caller: ToolCaller,
    context: ToolContext,
  ): unknown;
}): Tool {
  const schema = z.strictObject(spec.input);
  const inputSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return {
    name: spec.name,
    role: spec.role,
    scope: spec.scope,
    description: `${spec.description} Needs the ${spec.role} role.`,
    inputSchema: { ...inputSchema, type: 'object' },
    parse(args) {
      const parsed = parseFields(schema, args ?? {});
      if (!parsed.ok) {
        throw new AppError('VALIDATION_FAILED', { fieldErrors: [...parsed.errors] });
      }
      return parsed.value;
    },
    call: (input, deps, caller, context) =>
      spec.run(input as z.output<z.ZodObject<Shape, z.core.$strict>>, deps, caller, context),
  };
}

/** An identifier argument: a non-empty string, described for a model with an example. */
export const id = (label: string, description?: string): z.ZodString => {
  const schema = z
    .string({ error: `${label} must be a string` })
    .min(1, `${label} must not be empty`);
  return description === undefined ? schema : schema.describe(description);
};

/** Lists are answered as `{ items }`: a tool's structured content is an object. */
export function items<T>(list: readonly T[]): { readonly items: readonly T[] } {
  return { items: list };
}
