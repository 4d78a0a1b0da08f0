// Workflows kept as files: a `.yaml`, `.yml` or `.json` file holds one workflow definition
// with the `sessionId` it belongs to, or a session (`kind: session`). Problems are reported with
// the file, the path inside it and the line, so an editor can jump to them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { LineCounter, isCollection, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import type { ApiSchemas } from '../client/index.js';

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

export type WorkflowDefinition = ApiSchemas['WorkflowDefinitionInput'];

export interface FileProblem {
  readonly file: string;
  /** The field inside the file, as the server names it (`nodes[0].config.expression`). */
  readonly path: string;
  readonly line: number | null;
  readonly message: string;
}

interface Located {
  readonly file: string;
  /** The line of a field, or of the nearest field above it that exists. */
  lineOf(path: string): number | null;
}

export interface WorkflowFile extends Located {
  readonly kind: 'workflow';
  readonly sessionId: string;
  readonly definition: WorkflowDefinition;
  /** The directory's name: the name of the session if it has to be created. */
  readonly folder: string;
}

export interface SessionFile extends Located {
  readonly kind: 'session';
  readonly sessionId: string;
  readonly name: string;
  readonly initiator: string;
  readonly description?: string;
}

export type ResourceFile = WorkflowFile | SessionFile;

export interface LoadedFiles {
  readonly workflows: readonly WorkflowFile[];
  readonly sessions: readonly SessionFile[];
  readonly problems: readonly FileProblem[];
}

/** Every workflow and session file named, directories searched through. */
export function loadFiles(paths: readonly string[]): LoadedFiles {
  const workflows: WorkflowFile[] = [];
  const sessions: SessionFile[] = [];
  const problems: FileProblem[] = [];
  for (const file of paths.flatMap((path) => filesUnder(resolve(path), problems))) {
    const loaded = loadFile(file, problems);
    if (loaded?.kind === 'workflow') workflows.push(loaded);
    if (loaded?.kind === 'session') sessions.push(loaded);
  }
  return { workflows, sessions, problems };
}

function filesUnder(path: string, problems: FileProblem[]): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    problems.push({ file: path, path: '', line: null, message: 'No such file or directory' });
    return [];
  }
  if (stat.isFile()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.') && entry.name !== 'node_modules')
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const child = join(path, entry.name);
      if (entry.isDirectory()) return filesUnder(child, problems);
      return EXTENSIONS.has(extname(entry.name)) ? [child] : [];
    });
}

function loadFile(file: string, problems: FileProblem[]): ResourceFile | undefined {
  const text = readFileSync(file, 'utf8');
  const lines = new LineCounter();
  // JSON is YAML too: one parser gives lines for both.
  const document = parseDocument(text, { lineCounter: lines });
  const lineOf = (path: string): number | null => lineOfPath(document, lines, path);
  const problem = (path: string, message: string, line: number | null): void => {
    problems.push({ file, path, line, message });
  };
  if (document.errors.length > 0) {
    for (const error of document.errors) {
      problem('', error.message.split('\n')[0] ?? error.message, error.linePos?.[0].line ?? null);
    }
    return undefined;
  }
  const value: unknown = document.toJS();
  const found = resourceOf(value);
  if (typeof found === 'string' || Array.isArray(found)) {
    const list = typeof found === 'string' ? [{ path: '', message: found }] : found;
    for (const { path, message } of list) problem(path, message, path === '' ? 1 : lineOf(path));
    return undefined;
  }
  return found.kind === 'session'
    ? { ...found, file, lineOf }
    : { ...found, file, lineOf, folder: basename(dirname(file)) };
}

type Found =
  Omit<SessionFile, 'file' | 'lineOf'> | Omit<WorkflowFile, 'file' | 'lineOf' | 'folder'>;

/** The resource a file holds, or what is wrong with it. */
function resourceOf(value: unknown): Found | string | { path: string; message: string }[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'Expected a workflow or a session (an object)';
  }
  const record = value as Record<string, unknown>;
  const { sessionId } = record;
  if (typeof sessionId !== 'string' || sessionId === '') {
    return [
      { path: 'sessionId', message: 'sessionId is mandatory: the session the file belongs to' },
    ];
  }
  if (record.kind === 'session') {
    const { kind: _kind, sessionId: _id, name, initiator, description, ...rest } = record;
    const problems = Object.keys(rest).map((field) => ({
      path: field,
      message: `Unknown field '${field}' of a session`,
    }));
    if (typeof name !== 'string' || name.trim() === '') {
      problems.push({ path: 'name', message: 'name is mandatory' });
    }
    if (typeof initiator !== 'string' || initiator.trim() === '') {
      problems.push({ path: 'initiator', message: 'initiator is mandatory' });
    }
    if (description !== undefined && typeof description !== 'string') {
      problems.push({ path: 'description', message: 'description must be a string' });
    }
    if (problems.length > 0) return problems;
    return {
      kind: 'session',
      sessionId,
      name: name as string,
      initiator: initiator as string,
      ...(description === undefined ? {} : { description: description as string }),
    };
  }
  if (record.kind !== undefined) {
    return [
      { path: 'kind', message: "kind is 'session' for a session file; a workflow file has none" },
    ];
  }
  const { sessionId: _id, ...definition } = record;
  return {
    kind: 'workflow',
    sessionId,
    // Unchecked here on purpose: the server validates the definition when it is applied and
    // answers every problem with its path, which the command prints against the file's lines.
    definition: definition as WorkflowDefinition,
  };
}

/** `nodes[2].config.x` as the keys of the parsed document: `['nodes', 2, 'config', 'x']`. */
export function pathKeys(path: string): (string | number)[] {
  const keys: (string | number)[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (match[2] !== undefined) keys.push(Number(match[2]));
    else if (match[1] !== undefined) keys.push(match[1]);
  }
  return keys;
}

function lineOfPath(document: Document, lines: LineCounter, path: string): number | null {
  const keys = pathKeys(path);
  for (let length = keys.length; length >= 0; length--) {
    const node: unknown =
      length === 0 ? document.contents : document.getIn(keys.slice(0, length), true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (range !== undefined && (length > 0 || isCollection(node))) {
      return lines.linePos(range[0]).line;
    }
  }
  return null;
}
