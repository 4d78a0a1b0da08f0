// The web UI (SPEC "Deployment facts"): `GET /` and every other GET path outside the API,
// management, tool-endpoint and documentation paths answers the page Vite built; the files
// beside it are assets cached for a year. docs/ui.md records every choice made here.
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { isManagementPath, isToolPath } from '../auth/index.js';
import { pathOf } from './server.js';

/**
 * Where `npm run build` puts the UI. This module sits two folders below the package root both
 * as source (`src/http`) and built (`dist/http`), so one relative path serves tests and server.
 */
export const WEB_UI_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

/** Same-origin scripts, styles and connections only; no objects, no framing (SPEC). */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The page names the hashed assets of its build, so it must never be served from a cache. */
export const UI_PAGE_CACHE_CONTROL = 'no-store';
export const UI_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': UI_PAGE_CACHE_CONTROL,
  'content-security-policy': UI_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

const ASSET_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': UI_ASSET_CACHE_CONTROL,
  'x-content-type-options': 'nosniff',
};

const NOT_BUILT =
  'The web UI is not built. Run `npm run build` (it builds the server and the web UI) and ' +
  'start the server again. The REST API is under /api and its description at /swagger-ui.html.\n';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

/** Text formats gain from compression; images and fonts are compressed already. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:[\w.+-]+\+)?json|image\/svg\+xml)/;

interface UiFile {
  readonly body: Buffer;
  readonly contentType: string;
}

/** One build of the UI: its page and every other file by URL path. */
export interface UiBundle {
  readonly page: UiFile;
  readonly assets: ReadonlyMap<string, UiFile>;
}

export interface UiRoutesOptions {
  /** The built UI; `WEB_UI_DIR` by default. */
  readonly dir?: string;
  /**
   * The server's response compression (SPEC "Runtime profiles"). The UI is answered outside
   * the routes @fastify/compress wraps, so it compresses its own answers.
   */
  readonly compression?: { readonly enabled: boolean; readonly threshold: number };
}

/**
 * Reads a build into memory once: it is small, and a rebuild while the server runs cannot
 * then mix a new page with old assets. Undefined when the directory holds no `index.html`.
 */
export async function loadUiBundle(dir: string): Promise<UiBundle | undefined> {
  let page: Buffer;
  try {
    page = await readFile(join(dir, 'index.html'));
  } catch {
    return undefined;
  }
  const assets = new Map<string, UiFile>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const urlPath = `/${relative(dir, file).split(sep).join('/')}`;
    // Dot files are never part of a build; the page is answered as the page, never cached.
    if (urlPath === '/index.html' || urlPath.split('/').some((part) => part.startsWith('.'))) {
      continue;
    }
    assets.set(urlPath, {
      body: await readFile(file),
      contentType: CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    });
  }
  return { page: { body: page, contentType: 'text/html; charset=utf-8' }, assets };
}

/** SPEC "Deployment facts": the paths the UI never answers. */
export function isUiPath(path: string): boolean {
  return !(
    path === '/api' ||
    path.startsWith('/api/') ||
    isManagementPath(path) ||
    isToolPath(path) ||
    path === '/v3/api-docs' ||
    path.startsWith('/v3/api-docs/') ||
    path.startsWith('/swagger-ui')
  );
}

/** The path of a GET or HEAD Fastify found no route for, outside the API's paths. */
function uiPathOf(request: FastifyRequest): string | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const path = pathOf(request);
  return isUiPath(path) ? path : undefined;
}

/**
 * Serves the UI from the not-found path rather than as routes: a catch-all GET route would
 * make every unknown path "exist for GET", so unknown API paths would turn from 404 into 405,
 * and the UI is not part of the API the route table and its description list.
 */
export const uiRoutes = fastifyPlugin<UiRoutesOptions>(
  async (fastify, options) => {
    const dir = options.dir ?? WEB_UI_DIR;
    const bundle = await loadUiBundle(dir);
    if (bundle === undefined) {
      fastify.log.warn({ dir }, 'The web UI is not built; its pages answer 404 until it is');
    }
    const encoder = new Encoder(options.compression ?? { enabled: false, threshold: 0 });
    /** Answers a request of the UI; undefined leaves it to the not-found handler. */
    const answer = async (
      request: FastifyRequest,
      reply: FastifyReply,
      path: string,
    ): Promise<FastifyReply | undefined> => {
      if (bundle === undefined) {
        return reply
          .code(404)
          .headers(PAGE_HEADERS)
          .type('text/plain; charset=utf-8')
          .send(NOT_BUILT);
      }
      const file = decodedPath(path);
      const asset = bundle.assets.get(file);
      if (asset !== undefined) {
        return encoder.send(request, reply.code(200).headers(ASSET_HEADERS), file, asset);
      }
      // A missing asset is a 404 like any unknown path: the page in its place would only give
      // the browser HTML where it expects a script or a style sheet.
      if (path.startsWith('/assets/')) return undefined;
      return encoder.send(request, reply.code(200).headers(PAGE_HEADERS), '/', bundle.page);
    };
    // Callback style: an async hook would cost every API request a promise and a turn of
    // microtasks, for the few requests that are the UI's.
    fastify.addHook('onRequest', (request, reply, done) => {
      const path = request.is404 ? uiPathOf(request) : undefined;
      if (path === undefined) done();
      else
        answer(request, reply, path).then((sent) => {
          if (sent === undefined) done();
        }, done);
    });
  },
  // Not encapsulated: the hook must see every request Fastify finds no route for.
  { name: 'ui-routes' },
);

type Encoding = 'br' | 'gzip';

const compressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 9,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

/** Compresses each file at most once per encoding, on its first request. */
class Encoder {
  readonly #enabled: boolean;
  readonly #threshold: number;
  readonly #encoded = new Map<string, Promise<Buffer>>();

  constructor(options: { readonly enabled: boolean; readonly threshold: number }) {
    this.#enabled = options.enabled;
    this.#threshold = options.threshold;
  }

  async send(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    file: UiFile,
  ): Promise<FastifyReply> {
    void reply.type(file.contentType);
    if (
      !this.#enabled ||
      file.body.length < this.#threshold ||
      !COMPRESSIBLE.test(file.contentType)
    ) {
      return reply.send(file.body);
    }
    void reply.header('vary', 'accept-encoding');
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (encoding === undefined) return reply.send(file.body);
    const cacheKey = `${encoding} ${key}`;
    let encoded = this.#encoded.get(cacheKey);
    if (encoded === undefined) {
      encoded = compressors[encoding](file.body);
      this.#encoded.set(cacheKey, encoded);
      // A failure is answered as one (500) and not kept, so the next request tries again.
      encoded.catch(() => this.#encoded.delete(cacheKey));
    }
    return reply.header('content-encoding', encoding).send(await encoded);
  }
}

/** The encoding to answer with: brotli, else gzip, when the client accepts it (q > 0). */
export function preferredEncoding(header: string | undefined): Encoding | undefined {
  if (header === undefined) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const weight = parameters.find((parameter) => parameter.startsWith('q='));
    weights.set(name, weight === undefined ? 1 : Number(weight.slice(2)) || 0);
  }
  return (['br', 'gzip'] as const).find(
    (encoding) => (weights.get(encoding) ?? weights.get('*') ?? 0) > 0,
  );
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
