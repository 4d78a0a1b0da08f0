// Every tool of the endpoint, by the role table of SPEC "Tool endpoint".
import type { Tool } from '../tool.js';
import { catalogTools } from './catalog.tool.js';
import { deadLetterTools } from './dead-letters.tool.js';
import { executionTools } from './executions.tool.js';
import { sessionTools } from './sessions.tool.js';

export const MCP_TOOLS: readonly Tool[] = [
  ...sessionTools,
  ...executionTools,
  ...deadLetterTools,
  ...catalogTools,
];
