import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/index.js';
import { MAX_MCP_SESSIONS, MCP_SESSION_IDLE_MS, McpSessions, ownerOf } from './mcp-sessions.js';
import type { McpSession } from './mcp-sessions.js';

/** A session whose transport and connection only record that they were ended. */
function fakeSession(owner: string, lastUsed: number, ended: string[], id: string): McpSession {
  return {
    transport: {
      close: () => {
        ended.push(id);
        return Promise.resolve();
      },
    } as unknown as McpSession['transport'],
    connection: {
      server: undefined,
      close: () => undefined,
    } as unknown as McpSession['connection'],
    principal: null,
    owner,
    lastUsed,
    streams: 0,
  };
}

const key = (caller: string, sessions: string[] | null = null): Principal => ({
  role: 'VIEWER',
  sessions,
  actor: caller,
  caller,
});

describe('MCP sessions', () => {
  it('answers a session only to the key that opened it', () => {
    const sessions = new McpSessions();
    const owner = ownerOf(key('key:a'));
    sessions.add('s1', fakeSession(owner, 0, [], 's1'));
    expect(sessions.find('s1', owner)).toBeDefined();
    expect(sessions.find('s1', ownerOf(key('key:b')))).toBeUndefined();
    expect(sessions.find('s1', ownerOf(key('key:a', ['mine'])))).toBeUndefined();
    expect(sessions.find('s1', ownerOf(null))).toBeUndefined();
    void sessions.closeAll();
  });

  it('ends sessions idle for longer than the idle time, but not one with an open stream', () => {
    let now = 0;
    const ended: string[] = [];
    const sessions = new McpSessions(() => now);
    const open = ownerOf(null);
    sessions.add('idle', fakeSession(open, 0, ended, 'idle'));
    const streaming = fakeSession(open, 0, ended, 'streaming');
    streaming.streams = 1;
    sessions.add('streaming', streaming);
    sessions.add('recent', fakeSession(open, MCP_SESSION_IDLE_MS, ended, 'recent'));
    now = MCP_SESSION_IDLE_MS + 1;
    sessions.endIdle();
    expect(ended).toEqual(['idle']);
    expect(sessions.size).toBe(2);
    void sessions.closeAll();
  });

  it('ends the session used least recently when one more would pass the bound', () => {
    const ended: string[] = [];
    const sessions = new McpSessions();
    const open = ownerOf(null);
    for (let index = 0; index < MAX_MCP_SESSIONS; index += 1) {
      sessions.add(`s${index}`, fakeSession(open, 0, ended, `s${index}`));
    }
    sessions.find('s0', open);
    sessions.add('one-more', fakeSession(open, 0, ended, 'one-more'));
    expect(ended).toEqual(['s1']);
    expect(sessions.size).toBe(MAX_MCP_SESSIONS);
    void sessions.closeAll();
  });
});
