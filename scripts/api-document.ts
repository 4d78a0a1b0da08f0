// The API description as the server serves it at /v3/api-docs, from an app that is built but
// never listens; the client generator and the contract test both start here.
import type { OpenAPIV3 } from 'openapi-types';
import { createApp } from '../src/app.js';
import { DEFAULT_PLUGINS, loadSettings } from '../src/config/index.js';
import { createSilentLoggers } from '../src/observability/index.js';

export async function apiDocument(): Promise<OpenAPIV3.Document> {
  const { settings, profile } = loadSettings({
    argv: ['--svc.server.port=0'],
    env: {},
    features: { postgres: false },
  });
  const app = await createApp({
    settings,
    profile,
    buildInfo: {
      version: '0.0.1-SNAPSHOT',
      commit: 'api-document',
      buildTime: new Date(0).toISOString(),
      plugins: [...DEFAULT_PLUGINS],
      persistence: false,
      workers: true,
    },
    loggers: createSilentLoggers(),
    env: {},
  });
  try {
    await app.fastify.ready();
    return app.fastify.swagger() as OpenAPIV3.Document;
  } finally {
    await app.close();
  }
}
