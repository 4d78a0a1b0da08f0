// SPEC "Workflow-author safeguards": what the settings allow plugins to do, in the shape the
// plugin API hands them. The control plane and every worker build it from their own settings.
import type { Settings } from '../config/index.js';
import type { Safeguards } from '../plugin-api/index.js';
import { LlmRateLimiter } from './builtin/llm-call/llm-rate-limiter.js';

export function createSafeguards(settings: Settings): Safeguards {
  const patterns = (list: readonly string[]): RegExp[] =>
    list.map((pattern) => new RegExp(pattern));
  return {
    processAllowedCommands: settings['svc.process.allowed-commands'],
    processAllowAny: settings['svc.process.allow-any'],
    scriptTimeoutMs: settings['svc.script.timeout-ms'],
    scriptMaxStatements: settings['svc.script.max-statements'],
    filesBaseDir: settings['svc.files.base-dir'],
    mcpAllowedTools: settings['svc.mcp-client.allowed-tools'],
    mcpMaxArgumentBytes: settings['svc.mcp-client.max-argument-bytes'],
    mcpDenyArgumentPatterns: patterns(settings['svc.mcp-client.deny-argument-patterns']),
    llmDenyInputPatterns: patterns(settings['svc.llm.deny-input-patterns']),
    llmDenyOutputPatterns: patterns(settings['svc.llm.deny-output-patterns']),
    llmMaxInputChars: settings['svc.llm.max-input-chars'],
    llmRequests: new LlmRateLimiter(settings['svc.llm.rate-limit.*']),
  };
}
