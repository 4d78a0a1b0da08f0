// SPEC Deployment facts and Build-time choices: what the container image is. No container
// engine runs on the build machine, so the Dockerfile is read rather than built, and the
// environment it gives the server is tried on a real server process.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runServerToExit, startServerProcess } from './support/process.js';

const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
/** The image's own stage: everything after the last FROM. */
const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
const build = dockerfile.slice(0, dockerfile.lastIndexOf('\nFROM '));
const instructions = (stage: string, name: string): string[] =>
  stage
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.startsWith(`${name} `))
    .map((line) => line.slice(name.length + 1).trim());
/** The image's environment, as ENV lines set it. */
const imageEnv = Object.fromEntries(
  instructions(runtime, 'ENV').flatMap((line) =>
    [...line.matchAll(/(\w+)=(\S+)/g)].map((match) => [match[1] ?? '', match[2] ?? '']),
  ),
);

/** The Node.js major line package.json asks for (`engines.node`, `>=24`). */
const nodeMajor = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    engines: { node: string };
  }
).engines.node
  .replace(/^>=\s*/, '')
  .split('.')[0];

describe('the container image (SPEC Deployment facts)', () => {
  it('builds and runs on the Node.js line package.json asks for (24)', () => {
    expect(nodeMajor).toBe('24');
    expect(instructions(build, 'FROM')).toEqual([`node:${nodeMajor}-bookworm-slim AS build`]);
    expect(instructions(runtime, 'FROM')).toEqual([
      `gcr.io/distroless/nodejs${nodeMajor}-debian12:nonroot`,
    ]);
  });

  it('runs as the unprivileged user 65532 on a base without shell or package manager, and exposes 8080', () => {
    expect(instructions(runtime, 'USER')).toEqual(['65532:65532']);
    expect(instructions(runtime, 'EXPOSE')).toEqual(['8080']);
    // Nothing in the image's stage runs a command: there is no shell to run it.
    expect(instructions(runtime, 'RUN')).toEqual([]);
  });

  it('is built with the default switches: no relational stores, no workers, no script plugin', () => {
    expect(instructions(build, 'RUN')).toContain('npm run build');
    expect(dockerfile).not.toMatch(/svc\.plugins|SVC_PLUGINS|persistence|SVC_WORKERS|svc\.workers/);
  });

  it('listens on all interfaces in the prod profile with no key set, and gives its working directory to the server user', () => {
    expect(imageEnv).toMatchObject({ SVC_SERVER_ADDRESS: '0.0.0.0', SVC_PROFILES_ACTIVE: 'prod' });
    expect(imageEnv).not.toHaveProperty('SVC_API_KEY');
    expect(instructions(runtime, 'WORKDIR')).toEqual(['/data']);
    expect(instructions(runtime, 'COPY')).toContain('--from=build --chown=65532:65532 /data /data');
  });

  it('so it refuses to start without a key, and starts with one (SPEC Authentication 7)', async () => {
    const refused = await runServerToExit([], imageEnv);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr + refused.stdout).toContain('Refusing to listen on');
    const started = await startServerProcess([], { ...imageEnv, SVC_API_KEY: 'image-key' });
    try {
      const health = await fetch(`${started.baseUrl}/actuator/health`);
      expect(health.status).toBe(200);
    } finally {
      started.child.kill('SIGTERM');
      await started.exited();
    }
  });
});
