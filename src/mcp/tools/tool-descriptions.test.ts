// A model reads only tools/list: every tool says what it does and what role it needs, and every
// argument says what it is with an example.
import { describe, expect, it } from 'vitest';
import { MCP_TOOLS } from './index.js';

describe('tool descriptions', () => {
  it.each(MCP_TOOLS.map((tool) => [tool.name, tool] as const))(
    '%s describes itself and each argument with an example',
    (_name, tool) => {
      expect(tool.description).toMatch(/\. Needs the (VIEWER|OPERATOR|ADMIN) role\.$/);
      const properties = (tool.inputSchema.properties ?? {}) as Record<
        string,
        { description?: string }
      >;
      for (const [argument, schema] of Object.entries(properties)) {
        expect(schema.description, `${tool.name}.${argument}`).toMatch(/e\.g\. /);
      }
    },
  );
});
