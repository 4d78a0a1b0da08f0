// Counts of `svc_plugin_events_total` as a server reports them on its Prometheus endpoint.
import type { TestServer } from './server.js';

/** The counts of `svc.plugin.events` for one plugin event (`nats.message`, ...), by outcome. */
export async function pluginEvents(
  server: Pick<TestServer, 'call'>,
  event: string,
): Promise<Record<string, number>> {
  const text = (await server.call('GET', '/actuator/prometheus')).text;
  const counts: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith('svc_plugin_events_total{') || !line.includes(`plugin="${event}"`)) {
      continue;
    }
    const outcome = /outcome="([^"]*)"/.exec(line)?.[1] ?? '';
    counts[outcome] = (counts[outcome] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return counts;
}
