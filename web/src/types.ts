// The records the UI reads, by the names it uses: the types of the client generated from the
// API description (src/client, docs/api.md), so they cannot drift from what the server answers.
import type { ApiSchemas } from './api';

export type ExecutionRecord = ApiSchemas['Execution'];
export type ExecutionStatus = ApiSchemas['ExecutionStatus'];
export type NodeRecord = ApiSchemas['ExecutionNode'];
export type ProgressSnapshot = ApiSchemas['ExecutionProgress'];
export type ExecutionPage = ApiSchemas['ExecutionPage'];
export type SessionView = ApiSchemas['Session'];
export type WorkflowSummary = ApiSchemas['WorkflowSummary'];
export type WorkflowGraph = ApiSchemas['WorkflowGraph'];
export type VersionView = ApiSchemas['WorkflowVersion'];
export type ResultEvent = ApiSchemas['ResultEvent'];
export type LogEntry = ApiSchemas['LogLine'];
export type Approval = ApiSchemas['Approval'];
/** A progress-stream event: the state event with the execution as it is now. */
export type ProgressEvent = ApiSchemas['ProgressEvent'];
/** The live flow of a run (progress stream with `flow=true`), about once a second. */
export type FlowEvent = ApiSchemas['FlowEvent'];
export type RunFlow = FlowEvent['flow'];
export type EdgeFlow = RunFlow['edges'][number];
export type NodeFlow = RunFlow['nodes'][number];

/** The statuses in the order the filter offers them; the compiler checks none is missing. */
export const EXECUTION_STATUSES = [
  'QUEUED',
  'RUNNING',
  'PAUSED',
  'COMPLETED',
  'FAILED',
  'STOPPED',
  'TIMED_OUT',
  'ABORTED',
] as const satisfies readonly ExecutionStatus[];
type Unlisted = Exclude<ExecutionStatus, (typeof EXECUTION_STATUSES)[number]>;
/** Does not compile while a status of the API is missing from the list above. */
export const EVERY_STATUS_LISTED: [Unlisted] extends [never] ? true : never = true;

/** What the editor works on: a workflow definition as the save and validate calls take it. */
export type WorkflowDefinition = ApiSchemas['WorkflowDefinition'];
export type DefinitionNode = WorkflowDefinition['nodes'][number];
export type DefinitionEdge = WorkflowDefinition['edges'][number];
export type PluginView = ApiSchemas['Plugin'];
export type PluginKind = ApiSchemas['NodeKind'];
export type WorkflowValidation = ApiSchemas['WorkflowValidation'];
export type FieldProblem = ApiSchemas['FieldError'];
export type VersionDiff = ApiSchemas['WorkflowVersionDiff'];
