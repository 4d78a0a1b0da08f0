// Use cases for sessions and their versioned workflows; the HTTP routes and MCP tools call these.
import { AppError, KeyedLock, isoTimestamp } from '../core/index.js';
import type { Clock, FieldError, IdGenerator } from '../core/index.js';
import { describeGraph, diffWorkflows, validateWorkflow } from '../engine/index.js';
import type {
  PluginCatalog,
  SessionRecord,
  SessionStore,
  WorkflowDefinition,
  WorkflowDiff,
  WorkflowGraph,
  WorkflowLayout,
  WorkflowRecord,
  WorkflowValidation,
  WorkflowVersionRecord,
} from '../engine/index.js';
import { subWorkflowReachErrors } from './sub-workflow-reach.js';
import { layoutErrors, layoutFor } from './workflow-layout.js';
import type { LayoutView } from './workflow-layout.js';

/** SPEC "Versioning" 3: the newest 20 saved versions of a workflow are kept. */
export const MAX_SAVED_VERSIONS = 20;

export interface SessionServiceDeps {
  readonly store: SessionStore;
  readonly catalog: PluginCatalog;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Whether this build includes remote workers (decides `engine.placement`). */
  readonly workers: boolean;
  /** Session memory whose histories go with a deleted session. */
  readonly sessionMemory?: { dropSession(sessionId: string): void };
}

export interface CreateSessionInput {
  readonly sessionId?: string | undefined;
  readonly name: string;
  readonly initiator: string;
  readonly description?: string | undefined;
  readonly workflows?: readonly WorkflowDefinition[] | undefined;
}

/** CONTRACT section 3: the session record. */
export interface SessionView {
  readonly sessionId: string;
  readonly name: string;
  readonly initiator: string;
  readonly description: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly workflows: string[];
}

export interface WorkflowSummary {
  readonly workflowId: string;
  readonly description: string;
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly nodes: number;
  readonly edges: number;
  /** Always-on (docs/always-on.md): the server keeps one run of it going. */
  readonly active: boolean;
}

/** A workflow named by its session. */
export interface WorkflowRef {
  readonly sessionId: string;
  readonly workflowId: string;
}

export interface SavedWorkflow {
  readonly sessionId: string;
  readonly workflowId: string;
  readonly version: number;
  /** True when this save created the workflow, false when it replaced it. */
  readonly created: boolean;
}

/** CONTRACT section 4: one row of the version list. */
export interface VersionView {
  readonly version: number;
  readonly createdAt: string;
  readonly author: string;
  readonly note: string | null;
  readonly current: boolean;
}

export interface VersionDiff extends WorkflowDiff {
  readonly from: number;
  readonly to: number;
}

export class SessionService {
  readonly #deps: SessionServiceDeps;
  /** One lock per session: every change of a session or its workflows is read-modify-write. */
  readonly #lock = new KeyedLock();

  constructor(deps: SessionServiceDeps) {
    this.#deps = deps;
  }

  validate(definition: WorkflowDefinition): WorkflowValidation {
    return validateWorkflow(definition, this.#deps.catalog, { workers: this.#deps.workers });
  }

  async createSession(input: CreateSessionInput, actor: string): Promise<SessionView> {
    const sessionId = input.sessionId ?? this.#deps.ids();
    const workflows = input.workflows ?? [];
    this.#assertValidWorkflows(workflows, 'workflows');
    return this.#lock.run(sessionId, async () => {
      if (await this.#deps.store.getSession(sessionId)) {
        throw new AppError('SESSION_ALREADY_EXISTS', { params: { sessionId } });
      }
      const now = isoTimestamp(this.#deps.clock);
      const session: SessionRecord = {
        sessionId,
        name: input.name,
        initiator: input.initiator,
        description: input.description ?? '',
        createdAt: now,
        updatedAt: now,
      };
      await this.#deps.store.putSession(session);
      for (const definition of workflows) {
        await this.#deps.store.putWorkflow({
          sessionId,
          workflowId: definition.workflowId,
          createdAt: now,
          versions: [this.#newVersion(1, definition, actor, null, now)],
        });
      }
      return toSessionView(
        session,
        workflows.map((workflow) => workflow.workflowId),
      );
    });
  }

  async listSessions(): Promise<SessionView[]> {
    const sessions = await this.#deps.store.listSessions();
    return Promise.all(sessions.map((session) => this.#view(session)));
  }

  async getSession(sessionId: string): Promise<SessionView> {
    return this.#view(await this.#requireSession(sessionId));
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.#lock.run(sessionId, async () => {
      if (!(await this.#deps.store.deleteSession(sessionId))) {
        throw new AppError('SESSION_NOT_FOUND', { params: { sessionId } });
      }
      this.#deps.sessionMemory?.dropSession(sessionId);
    });
  }

  async listWorkflows(sessionId: string): Promise<WorkflowSummary[]> {
    await this.#requireSession(sessionId);
    const workflows = await this.#deps.store.listWorkflows(sessionId);
    return workflows.map((workflow) => {
      const current = currentVersion(workflow);
      return {
        workflowId: workflow.workflowId,
        description: current.definition.description,
        version: current.version,
        createdAt: workflow.createdAt,
        updatedAt: current.createdAt,
        nodes: current.definition.nodes.length,
        edges: current.definition.edges.length,
        active: workflow.active === true,
      };
    });
  }

  /** Turns a workflow always-on or off (docs/always-on.md); 404 for an unknown one. */
  async setActive(sessionId: string, workflowId: string, active: boolean): Promise<void> {
    await this.#lock.run(sessionId, async () => {
      const { active: _was, ...workflow } = await this.#requireWorkflow(sessionId, workflowId);
      await this.#deps.store.putWorkflow(active ? { ...workflow, active } : workflow);
    });
  }

  /** Every always-on workflow of every session. */
  async activeWorkflows(): Promise<WorkflowRef[]> {
    const found: WorkflowRef[] = [];
    for (const { sessionId } of await this.#deps.store.listSessions()) {
      for (const workflow of await this.#deps.store.listWorkflows(sessionId)) {
        if (workflow.active === true) found.push({ sessionId, workflowId: workflow.workflowId });
      }
    }
    return found;
  }

  async getWorkflow(sessionId: string, workflowId: string): Promise<WorkflowDefinition> {
    const workflow = await this.#requireWorkflow(sessionId, workflowId);
    return currentVersion(workflow).definition;
  }

  /**
   * Saves a new version of a workflow, creating the workflow on its first save; `reach`: the
   * sessions the saving key may reach (null: every session); `note`: the version's note.
   */
  async defineWorkflow(
    sessionId: string,
    definition: WorkflowDefinition,
    actor: string,
    reach: readonly string[] | null = null,
    note: string | null = null,
  ): Promise<SavedWorkflow> {
    this.#assertValidWorkflows([definition]);
    const outside = subWorkflowReachErrors(definition, reach);
    if (outside.length > 0) throw new AppError('WORKFLOW_INVALID', { fieldErrors: outside });
    return this.#lock.run(sessionId, async () => {
      const session = await this.#requireSession(sessionId);
      const existing = await this.#deps.store.getWorkflow(sessionId, definition.workflowId);
      const saved = await this.#saveVersion(session, existing, definition, actor, note);
      return {
        sessionId,
        workflowId: definition.workflowId,
        version: saved.version,
        created: existing === undefined,
      };
    });
  }

  async deleteWorkflow(sessionId: string, workflowId: string): Promise<void> {
    await this.#lock.run(sessionId, async () => {
      const session = await this.#requireSession(sessionId);
      if (!(await this.#deps.store.deleteWorkflow(sessionId, workflowId))) {
        throw new AppError('WORKFLOW_NOT_FOUND', { params: { sessionId, workflowId } });
      }
      await this.#deps.store.putSession({
        ...session,
        updatedAt: isoTimestamp(this.#deps.clock),
      });
    });
  }

  /** Where an editor placed the nodes of the current version; empty when nothing was saved. */
  async getLayout(sessionId: string, workflowId: string): Promise<LayoutView> {
    const workflow = await this.#requireWorkflow(sessionId, workflowId);
    return layoutView(workflow, workflow.layout ?? {});
  }

  /**
   * Replaces the layout without making a version: positions are not part of a definition
   * (SPEC fixes its node shape). Refused whole with field errors when an entry names a node the
   * current version lacks, or when there are more entries than a workflow may have nodes.
   */
  async saveLayout(
    sessionId: string,
    workflowId: string,
    positions: WorkflowLayout,
  ): Promise<LayoutView> {
    return this.#lock.run(sessionId, async () => {
      const workflow = await this.#requireWorkflow(sessionId, workflowId);
      const errors = layoutErrors(positions, currentVersion(workflow).definition);
      if (errors.length > 0) throw new AppError('VALIDATION_FAILED', { fieldErrors: errors });
      await this.#deps.store.putWorkflow({ ...workflow, layout: positions });
      return layoutView(workflow, positions);
    });
  }

  async describeGraph(
    sessionId: string,
    workflowId: string,
  ): Promise<WorkflowGraph & { version: number }> {
    const current = currentVersion(await this.#requireWorkflow(sessionId, workflowId));
    return { ...describeGraph(current.definition, this.#deps.catalog), version: current.version };
  }

  async listVersions(sessionId: string, workflowId: string): Promise<VersionView[]> {
    const workflow = await this.#requireWorkflow(sessionId, workflowId);
    const newest = currentVersion(workflow).version;
    return workflow.versions
      .map((version) => ({
        version: version.version,
        createdAt: version.createdAt,
        author: version.author,
        note: version.note,
        current: version.version === newest,
      }))
      .reverse();
  }

  async getVersion(
    sessionId: string,
    workflowId: string,
    version: string,
  ): Promise<WorkflowDefinition> {
    const workflow = await this.#requireWorkflow(sessionId, workflowId);
    return findVersion(workflow, version).definition;
  }

  async diffVersions(
    sessionId: string,
    workflowId: string,
    from: string,
    to: string,
  ): Promise<VersionDiff> {
    const workflow = await this.#requireWorkflow(sessionId, workflowId);
    const older = findVersion(workflow, from);
    const newer = findVersion(workflow, to);
    return {
      from: older.version,
      to: newer.version,
      ...diffWorkflows(older.definition, newer.definition),
    };
  }

  /** Makes an older version current by saving its definition as a new version. */
  async rollback(
    sessionId: string,
    workflowId: string,
    version: string,
    actor: string,
    note: string | null = null,
  ): Promise<VersionView> {
    return this.#lock.run(sessionId, async () => {
      const session = await this.#requireSession(sessionId);
      const workflow = await this.#requireWorkflow(sessionId, workflowId);
      const target = findVersion(workflow, version);
      const saved = await this.#saveVersion(
        session,
        workflow,
        target.definition,
        actor,
        // The new version says what it restores, then why when the caller says.
        note === null
          ? `Rollback to version ${target.version}`
          : `Rollback to version ${target.version}: ${note}`,
      );
      return { ...versionView(saved), current: true };
    });
  }

  async noteVersion(
    sessionId: string,
    workflowId: string,
    version: string,
    note: string,
  ): Promise<VersionView> {
    return this.#lock.run(sessionId, async () => {
      const workflow = await this.#requireWorkflow(sessionId, workflowId);
      const target = findVersion(workflow, version);
      const versions = workflow.versions.map((entry) =>
        entry.version === target.version ? { ...entry, note } : entry,
      );
      await this.#deps.store.putWorkflow({ ...workflow, versions });
      return {
        ...versionView({ ...target, note }),
        current: target.version === currentVersion(workflow).version,
      };
    });
  }

  async #saveVersion(
    session: SessionRecord,
    existing: WorkflowRecord | undefined,
    definition: WorkflowDefinition,
    actor: string,
    note: string | null,
  ): Promise<WorkflowVersionRecord> {
    const now = isoTimestamp(this.#deps.clock);
    const number = existing ? currentVersion(existing).version + 1 : 1;
    const version = this.#newVersion(number, definition, actor, note, now);
    const versions = [...(existing?.versions ?? []), version].slice(-MAX_SAVED_VERSIONS);
    await this.#deps.store.putWorkflow({
      sessionId: session.sessionId,
      workflowId: definition.workflowId,
      createdAt: existing?.createdAt ?? now,
      versions,
      // A new version leaves an always-on workflow on, and its nodes where they were.
      ...(existing?.active === true ? { active: true } : {}),
      ...optionalLayout(layoutFor(existing?.layout, definition)),
    });
    await this.#deps.store.putSession({ ...session, updatedAt: now });
    return version;
  }

  #newVersion(
    version: number,
    definition: WorkflowDefinition,
    author: string,
    note: string | null,
    createdAt: string,
  ): WorkflowVersionRecord {
    return { version, createdAt, author, note, definition };
  }

  /** `listField` names the request field holding the list, so errors point into it. */
  #assertValidWorkflows(workflows: readonly WorkflowDefinition[], listField?: string): void {
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    workflows.forEach((definition, index) => {
      const prefix = listField === undefined ? '' : `${listField}[${index}].`;
      if (seen.has(definition.workflowId)) {
        errors.push({
          field: `${prefix}workflowId`,
          message: `Duplicate workflow id '${definition.workflowId}'`,
        });
      }
      seen.add(definition.workflowId);
      for (const error of this.validate(definition).errors) {
        errors.push({ field: `${prefix}${error.field}`, message: error.message });
      }
    });
    if (errors.length > 0) throw new AppError('WORKFLOW_INVALID', { fieldErrors: errors });
  }

  async #requireSession(sessionId: string): Promise<SessionRecord> {
    const session = await this.#deps.store.getSession(sessionId);
    if (!session) throw new AppError('SESSION_NOT_FOUND', { params: { sessionId } });
    return session;
  }

  async #requireWorkflow(sessionId: string, workflowId: string): Promise<WorkflowRecord> {
    await this.#requireSession(sessionId);
    const workflow = await this.#deps.store.getWorkflow(sessionId, workflowId);
    if (!workflow) throw new AppError('WORKFLOW_NOT_FOUND', { params: { sessionId, workflowId } });
    return workflow;
  }

  async #view(session: SessionRecord): Promise<SessionView> {
    const workflows = await this.#deps.store.listWorkflows(session.sessionId);
    return toSessionView(
      session,
      workflows.map((workflow) => workflow.workflowId),
    );
  }
}

function layoutView(workflow: WorkflowRecord, positions: WorkflowLayout): LayoutView {
  return {
    sessionId: workflow.sessionId,
    workflowId: workflow.workflowId,
    version: currentVersion(workflow).version,
    positions,
  };
}

function optionalLayout(layout: WorkflowLayout | undefined): { layout?: WorkflowLayout } {
  return layout === undefined ? {} : { layout };
}

function toSessionView(session: SessionRecord, workflows: string[]): SessionView {
  return { ...session, workflows };
}

function currentVersion(workflow: WorkflowRecord): WorkflowVersionRecord {
  const last = workflow.versions.at(-1);
  if (!last)
    throw new AppError('STORE_FAILED', { params: { detail: 'workflow without versions' } });
  return last;
}

function findVersion(workflow: WorkflowRecord, version: string): WorkflowVersionRecord {
  const number = /^\d+$/.test(version) ? Number(version) : Number.NaN;
  const found = workflow.versions.find((entry) => entry.version === number);
  if (!found) {
    throw new AppError('VERSION_NOT_FOUND', {
      params: { version, workflowId: workflow.workflowId },
    });
  }
  return found;
}

function versionView(version: WorkflowVersionRecord): Omit<VersionView, 'current'> {
  return {
    version: version.version,
    createdAt: version.createdAt,
    author: version.author,
    note: version.note,
  };
}
