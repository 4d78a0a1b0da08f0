// SPEC Workflow-author safeguards: "HTTP_REQUEST and SQL_QUERY have no allow-list setting";
// the allow-lists that exist are those of PROCESS_EXECUTOR, MCP_TOOL_CALL and the variables
// of node configuration.
import { describe, expect, it } from 'vitest';
import { SETTING_KEYS } from './schema.js';

describe('workflow-author safeguard settings', () => {
  it('has allow-lists for variables, commands and MCP tools only, none for HTTP_REQUEST or SQL_QUERY', () => {
    const allowLists = SETTING_KEYS.filter(
      (key) => /allow/.test(key) && !/^svc\.allowed-(hosts|origins)$/.test(key),
    );
    expect(allowLists).toEqual([
      'svc.variables.allowed',
      'svc.process.allowed-commands',
      'svc.process.allow-any',
      'svc.mcp-client.allowed-tools',
    ]);
    expect(SETTING_KEYS.filter((key) => /http|sql|database|url-pattern/i.test(key))).toEqual([]);
  });
});
