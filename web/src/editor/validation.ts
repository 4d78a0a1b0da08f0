// Live validation: every change of the draft is checked by POST /api/sessions/validate (the
// same rules as saving and running), and each problem is filed under the node or edge its
// field names (`nodes[2].config.delayMs` belongs to the third node, field `config.delayMs`).
import { useEffect, useState } from 'react';
import { ApiError, api, call } from '../api';
import { asError } from '../hooks';
import type { FieldProblem, WorkflowDefinition } from '../types';

/** Waits this long after a change before asking, so typing sends one call, not one per key. */
const SETTLE_MS = 200;

export interface Problems {
  /** Undefined while the newest draft has not been answered yet. */
  readonly valid: boolean | undefined;
  readonly checking: boolean;
  readonly message: string;
  /** By node id; each field relative to the node (`config.delayMs`, `type`). */
  readonly byNode: ReadonlyMap<string, readonly FieldProblem[]>;
  /** By edge index; each field relative to the edge (`sourcePort`, or '' for the edge). */
  readonly byEdge: ReadonlyMap<number, readonly FieldProblem[]>;
  /** Problems of the workflow itself (its description, its size, a cycle). */
  readonly general: readonly FieldProblem[];
  /** Output ports of each node whose configuration is valid. */
  readonly outputPorts: Readonly<Record<string, readonly string[]>>;
}

interface Answer {
  readonly definition: WorkflowDefinition;
  readonly valid: boolean;
  readonly message: string;
  readonly errors: readonly FieldProblem[];
  readonly outputPorts: Readonly<Record<string, readonly string[]>>;
}

const PATH = /^(nodes|edges)\[(\d+)\](?:\.(.*))?$/;

function push<K>(map: Map<K, FieldProblem[]>, key: K, problem: FieldProblem): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [problem]);
  else list.push(problem);
}

/** Files each problem under its node, edge or the workflow, by the definition that was sent. */
export function fileProblems(
  definition: WorkflowDefinition,
  errors: readonly FieldProblem[],
): Pick<Problems, 'byNode' | 'byEdge' | 'general'> {
  const byNode = new Map<string, FieldProblem[]>();
  const byEdge = new Map<number, FieldProblem[]>();
  const general: FieldProblem[] = [];
  for (const error of errors) {
    const match = PATH.exec(error.field);
    const index = Number(match?.[2]);
    const field = match?.[3] ?? '';
    const node = match?.[1] === 'nodes' ? definition.nodes[index] : undefined;
    if (node !== undefined) push(byNode, node.nodeId, { field, message: error.message });
    else if (match?.[1] === 'edges' && index < definition.edges.length) {
      push(byEdge, index, { field, message: error.message });
    } else general.push(error);
  }
  return { byNode, byEdge, general };
}

async function validate(definition: WorkflowDefinition): Promise<Answer> {
  try {
    const result = await call(api.POST('/api/sessions/validate', { body: definition }));
    return { definition, ...result };
  } catch (error) {
    // A draft the request schema refuses (an unknown field typed into the text view) is
    // answered 400 with its fields: the same problems, shown the same way.
    if (error instanceof ApiError && error.fields.length > 0) {
      return {
        definition,
        valid: false,
        message: error.message,
        errors: error.fields,
        outputPorts: {},
      };
    }
    const message = asError(error).message;
    return {
      definition,
      valid: false,
      message,
      errors: [{ field: '', message }],
      outputPorts: {},
    };
  }
}

export function useLiveValidation(definition: WorkflowDefinition): Problems {
  const [answer, setAnswer] = useState<Answer>();
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      void validate(definition).then((next) => {
        if (current) setAnswer(next);
      });
    }, SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [definition]);
  const checking = answer?.definition !== definition;
  // Problems of the last answer stay on view while the next one is on its way, filed by the
  // definition they were found in.
  const filed = fileProblems(answer?.definition ?? definition, answer?.errors ?? []);
  return {
    valid: checking ? undefined : answer.valid,
    checking,
    message: answer?.message ?? 'Checking…',
    ...filed,
    outputPorts: answer?.outputPorts ?? {},
  };
}

/** The problems of one field of a node: its own and those of anything inside it. */
export function problemsOf(
  problems: readonly FieldProblem[] | undefined,
  field: string,
): FieldProblem[] {
  return (problems ?? []).filter(
    (problem) =>
      problem.field === field ||
      problem.field.startsWith(`${field}.`) ||
      problem.field.startsWith(`${field}[`),
  );
}
