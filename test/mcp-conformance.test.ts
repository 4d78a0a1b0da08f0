// The tool endpoint against the official MCP conformance suite (@modelcontextprotocol/conformance):
// its nine core server scenarios run as a child process against a started server, without a
// key and with one. With a key SPEC turns the Host check off, so the DNS rebinding scenario is
// expected to find it off.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit } from './support/process.js';
import { startTestServer } from './support/server.js';
import type { TestServer } from './support/server.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** The scenarios any server can pass: those that need no fixture tools, prompts or resources. */
const CORE_SCENARIOS = [
  'server-initialize',
  'logging-set-level',
  'ping',
  'completion-complete',
  'tools-list',
  'server-sse-multiple-streams',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
];

interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
}

/** Runs one scenario against `url`; answers its checks as the suite wrote them. */
async function runScenario(url: string, scenario: string): Promise<Check[]> {
  const output = mkdtempSync(join(tmpdir(), 'svc-conformance-'));
  try {
    const run = await runToExit(
      process.execPath,
      [CLI, 'server', '--url', url, '--scenario', scenario, '--output-dir', output],
      { timeoutMs: 60_000 },
    );
    const [folder] = readdirSync(output);
    if (folder === undefined)
      throw new Error(`${scenario} wrote no results:\n${run.stdout}${run.stderr}`);
    return JSON.parse(readFileSync(join(output, folder, 'checks.json'), 'utf8')) as Check[];
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}

/** Checks that did not succeed, named with their error. */
function problems(checks: readonly Check[]): string[] {
  return checks
    .filter((check) => check.status !== 'SUCCESS' && check.status !== 'INFO')
    .map((check) => `${check.id}: ${check.status} ${check.errorMessage ?? ''}`);
}

/**
 * The suite's client sends no key: this proxy adds one to every request and passes the rest,
 * the Host header included, unchanged.
 */
function keyProxy(target: string, key: string): Promise<Server> {
  const to = new URL(target);
  const proxy = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: to.hostname,
        port: to.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, authorization: `Bearer ${key}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) =>
    proxy.listen(0, '127.0.0.1', () => {
      resolve(proxy);
    }),
  );
}

describe('MCP conformance suite, core server scenarios', () => {
  let open: TestServer;
  let keyed: TestServer;
  let proxy: Server;

  beforeAll(async () => {
    open = await startTestServer();
    keyed = await startTestServer({ env: { SVC_API_KEY: 'conformance-key' } });
    proxy = await keyProxy(keyed.baseUrl, 'conformance-key');
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
    await open.close();
    await keyed.close();
  });

  it('passes every core scenario on a server without a key', { timeout: 120_000 }, async () => {
    const failed: string[] = [];
    for (const scenario of CORE_SCENARIOS) {
      const checks = await runScenario(`${open.baseUrl}/mcp`, scenario);
      expect(checks.length, scenario).toBeGreaterThan(0);
      failed.push(...problems(checks).map((problem) => `${scenario} ${problem}`));
    }
    expect(failed).toEqual([]);
  });

  it(
    'passes every core scenario but DNS rebinding with a key, which turns the Host check off (SPEC Host and Origin protection 3)',
    { timeout: 120_000 },
    async () => {
      const { port } = proxy.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/mcp`;
      const failed: string[] = [];
      for (const scenario of CORE_SCENARIOS.filter((name) => name !== 'dns-rebinding-protection')) {
        const checks = await runScenario(url, scenario);
        expect(checks.length, scenario).toBeGreaterThan(0);
        failed.push(...problems(checks).map((problem) => `${scenario} ${problem}`));
      }
      expect(failed).toEqual([]);
      const rebinding = await runScenario(url, 'dns-rebinding-protection');
      expect(problems(rebinding)).toEqual([
        expect.stringMatching(/^localhost-host-rebinding-rejected: FAILURE/),
      ]);
    },
  );
});
