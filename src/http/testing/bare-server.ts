// The HTTP edge alone, with no routes of the service: open access, silent logs, small limits.
// For tests of the edge's own behaviour (hooks, logging, closing).
import { KeyRing } from '../../auth/index.js';
import { createSilentLoggers } from '../../observability/index.js';
import { createHttpServer } from '../server.js';
import type { HttpServer, HttpServerOptions } from '../server.js';

export function createBareHttpServer(
  options: Partial<HttpServerOptions> = {},
): Promise<HttpServer> {
  return createHttpServer({
    logger: createSilentLoggers().app,
    bodyLimit: 1024,
    compression: { enabled: false, threshold: 1024 },
    access: {
      keys: new KeyRing({ apiKey: null, apiKeys: [], mcpApiKey: null }),
      allowedHosts: [],
      allowedOrigins: [],
      sessionOfExecution: () => undefined,
    },
    ...options,
  });
}
