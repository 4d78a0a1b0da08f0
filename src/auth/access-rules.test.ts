import { describe, expect, it } from 'vitest';
import {
  isAllowedHost,
  isAllowedOrigin,
  isAmbiguousPath,
  isLoopbackAddress,
  isOpenPath,
  requiredRole,
  sessionScope,
} from './access-rules.js';

describe('access rules (SPEC Authentication)', () => {
  it('derives roles from the path and method as the SPEC role table says', () => {
    expect(requiredRole('GET', '/api/sessions')).toBe('VIEWER');
    expect(requiredRole('HEAD', '/api/executions/x')).toBe('VIEWER');
    expect(requiredRole('POST', '/api/executions/x/stop')).toBe('OPERATOR');
    expect(requiredRole('POST', '/api/workflow/start')).toBe('OPERATOR');
    expect(requiredRole('DELETE', '/api/workflow/s/x')).toBe('OPERATOR');
    expect(requiredRole('POST', '/api/sessions')).toBe('ADMIN');
    expect(requiredRole('PUT', '/api/sessions/s/workflows/w')).toBe('ADMIN');
    expect(requiredRole('POST', '/api/scheduler/limits')).toBe('ADMIN');
    expect(requiredRole('GET', '/actuator/metrics')).toBe('ADMIN');
  });

  it('refuses ambiguous paths: ; // .. backslash and encoded slash, dot or percent sign', () => {
    for (const path of [
      '/api/a;b',
      '//api',
      '/api/../x',
      '/api\\x',
      '/api/%2F',
      '/api/%2e',
      '/api/%25',
      '/api/%2f',
    ]) {
      expect(isAmbiguousPath(path)).toBe(true);
    }
    for (const path of ['/api/sessions/a-b.c', '/api/executions/x%20y', '/']) {
      expect(isAmbiguousPath(path)).toBe(false);
    }
  });

  it('opens health, the API description, its page and the UI pages, and nothing else', () => {
    expect(isOpenPath('GET', '/actuator/health')).toBe(true);
    expect(isOpenPath('GET', '/swagger-ui.html')).toBe(true);
    expect(isOpenPath('GET', '/v3/api-docs')).toBe(true);
    expect(isOpenPath('GET', '/')).toBe(true);
    expect(isOpenPath('GET', '/executions/abc')).toBe(true);
    expect(isOpenPath('GET', '/actuator/info')).toBe(false);
    expect(isOpenPath('GET', '/api/sessions')).toBe(false);
    expect(isOpenPath('POST', '/')).toBe(false);
    expect(isOpenPath('POST', '/mcp')).toBe(false);
  });

  it('finds the session or execution a path reaches for session-limited keys', () => {
    expect(sessionScope('/api/sessions/s1')).toEqual({ kind: 'session', sessionId: 's1' });
    expect(sessionScope('/api/sessions/s1/workflows/w')).toEqual({
      kind: 'session',
      sessionId: 's1',
    });
    expect(sessionScope('/api/workflow/s1/start')).toEqual({ kind: 'session', sessionId: 's1' });
    expect(sessionScope('/api/executions/e1/results')).toEqual({
      kind: 'execution',
      executionId: 'e1',
    });
    expect(sessionScope('/api/workflow/start')).toEqual({ kind: 'none' });
    expect(sessionScope('/api/sessions')).toEqual({ kind: 'none' });
    expect(sessionScope('/api/executions')).toEqual({ kind: 'none' });
    expect(sessionScope('/api/events')).toEqual({ kind: 'none' });
  });

  it('accepts localhost, 127.0.0.1, [::1] and listed hosts, with or without a port', () => {
    expect(isAllowedHost('localhost:8080', [])).toBe(true);
    expect(isAllowedHost('127.0.0.1', [])).toBe(true);
    expect(isAllowedHost('[::1]:8080', [])).toBe(true);
    expect(isAllowedHost('evil.example', [])).toBe(false);
    expect(isAllowedHost('app.internal:9000', ['app.internal'])).toBe(true);
    expect(isAllowedHost(undefined, [])).toBe(false);
  });

  it('refuses a changing request from another origin unless listed', () => {
    expect(isAllowedOrigin('POST', 'http://localhost:8080', 'localhost:8080', [])).toBe(true);
    expect(isAllowedOrigin('POST', 'http://evil.example', 'localhost:8080', [])).toBe(false);
    expect(isAllowedOrigin('GET', 'http://evil.example', 'localhost:8080', [])).toBe(true);
    expect(isAllowedOrigin('POST', undefined, 'localhost:8080', [])).toBe(true);
    expect(
      isAllowedOrigin('DELETE', 'https://app.example:8443', 'localhost:8080', [
        'https://app.example:8443',
      ]),
    ).toBe(true);
    expect(isAllowedOrigin('POST', 'null', 'localhost:8080', [])).toBe(false);
  });

  it('knows loopback addresses', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', 'localhost'])
      expect(isLoopbackAddress(address)).toBe(true);
    for (const address of ['0.0.0.0', '10.0.0.1', '::'])
      expect(isLoopbackAddress(address)).toBe(false);
  });
});
