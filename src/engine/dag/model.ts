// The workflow graph as users write it (SPEC "Resources and their fields").

export interface NodeDefinition {
  readonly nodeId: string;
  readonly type: string;
  readonly config?: Readonly<Record<string, unknown>> | undefined;
}

export interface EdgeDefinition {
  readonly source: string;
  readonly target: string;
  /** When omitted, every message of the source is routed along the edge. */
  readonly sourcePort?: string | undefined;
}

export interface WorkflowDefinition {
  readonly workflowId: string;
  readonly description: string;
  readonly nodes: readonly NodeDefinition[];
  readonly edges: readonly EdgeDefinition[];
}

/** SPEC "Limits": fixed graph limits. */
export const MAX_NODES = 500;
export const MAX_EDGES = 2000;
export const MAX_DESCRIPTION_LENGTH = 256;
