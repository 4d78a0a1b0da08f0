// What the engine and the services need from outside: the plugin catalogue and the stores.
import type { FieldError } from '../core/index.js';
import type { WorkflowDefinition } from './dag/model.js';

import type { NodeKind, NodeRuntime, NodeSetup } from '../plugin-api/index.js';

export type { NodeKind };

/** What validation needs to know of one plugin type. */
export interface PluginDescriptor {
  readonly type: string;
  readonly kind: NodeKind;
  /** Problems of a node's plugin-specific configuration; fields are relative to `config`. */
  validateConfig(config: Readonly<Record<string, unknown>>): readonly FieldError[];
  /** Output ports for a configuration that passed `validateConfig`. */
  outputPorts(config: Readonly<Record<string, unknown>>): readonly string[];
  /** Idle timeout when a node sets no `timeoutSeconds`; absent when there is none. */
  readonly defaultTimeoutSeconds?: number;
  /** Reaches nothing outside the run (`PluginDefinition.pure`); absent: it may. */
  readonly pure?: boolean;
  /** Takes the whole input stream (`PluginDefinition.wholeStream`): it cannot be placed. */
  readonly wholeStream?: boolean;
  /** The run-time part of one node, for a configuration that passed `validateConfig`. */
  createRuntime(config: Readonly<Record<string, unknown>>, setup: NodeSetup): NodeRuntime;
}

export interface PluginCatalog {
  find(type: string): PluginDescriptor | undefined;
  /** Why a type is missing when it is known but left out of this build, else undefined. */
  excludedReason(type: string): string | undefined;
}

export interface SessionRecord {
  readonly sessionId: string;
  readonly name: string;
  readonly initiator: string;
  readonly description: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface WorkflowVersionRecord {
  readonly version: number;
  readonly createdAt: string;
  /** Who saved it: the caller's actor name, or `anonymous` on a server without keys. */
  readonly author: string;
  readonly note: string | null;
  readonly definition: WorkflowDefinition;
}

export interface WorkflowRecord {
  readonly sessionId: string;
  readonly workflowId: string;
  readonly createdAt: string;
  /** Oldest first; the last one is current. At most 20 are kept. */
  readonly versions: readonly WorkflowVersionRecord[];
  /** Always-on (docs/always-on.md): the leading server keeps one run going. Absent: not. */
  readonly active?: boolean;
  /**
   * Where an editor placed the nodes of the current version, by node id (docs/ui.md, "Layout").
   * Kept beside the versions, not in them: SPEC fixes the shape of a definition's nodes.
   */
  readonly layout?: WorkflowLayout;
}

export interface NodePosition {
  readonly x: number;
  readonly y: number;
}

/** Canvas positions by node id. */
export type WorkflowLayout = Readonly<Record<string, NodePosition>>;

/**
 * Sessions and their versioned workflows. A caller can never change stored state by mutating
 * what it passed in or got back: records are copies, and saved versions (which never change)
 * are handed out deeply frozen and shared between reads. A write resolves once it is durable
 * for the store's kind.
 */
export interface SessionStore {
  readonly kind: 'memory' | 'file' | 'postgres';
  /** Loads what the store holds; fails naming the damaged file or row. */
  open(): Promise<void>;
  close(): Promise<void>;
  listSessions(): Promise<SessionRecord[]>;
  getSession(sessionId: string): Promise<SessionRecord | undefined>;
  putSession(session: SessionRecord): Promise<void>;
  /** Removes the session with all its workflows; false when it did not exist. */
  deleteSession(sessionId: string): Promise<boolean>;
  listWorkflows(sessionId: string): Promise<WorkflowRecord[]>;
  getWorkflow(sessionId: string, workflowId: string): Promise<WorkflowRecord | undefined>;
  putWorkflow(workflow: WorkflowRecord): Promise<void>;
  deleteWorkflow(sessionId: string, workflowId: string): Promise<boolean>;
}
