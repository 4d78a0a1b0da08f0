// A TCP proxy a test puts between a client and a real server to take the network away and give
// it back: `cut` drops every open connection and refuses new ones (as a server that went down
// or a link that broke), `drop` drops them too and then closes each new one at once, noting
// when it came (so a test sees a client's pauses between attempts), `restore` passes them on
// again on the same port; `mute` lets requests through and throws the answers away, as a link
// that broke while an answer was on its way. The broker itself keeps running for the other tests.
import { createConnection, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

export class TcpProxy {
  readonly #target: { readonly host: string; readonly port: number };
  readonly #open = new Set<Socket>();
  /** Open connections: each client with the connection to the server made for it. */
  readonly #pairs = new Set<{ readonly client: Socket; readonly upstream: Socket }>();
  #server: Server | undefined;
  #port = 0;
  /** Connections passed on since the proxy started: a reconnecting client adds one. */
  accepted = 0;
  /** When each connection closed at once by `drop` came (`performance.now()`). */
  readonly dropped: number[] = [];
  #dropping = false;

  private constructor(target: { readonly host: string; readonly port: number }) {
    this.#target = target;
  }

  /** A proxy on a free loopback port to `host:port`. */
  static async to(host: string, port: number): Promise<TcpProxy> {
    const proxy = new TcpProxy({ host, port });
    await proxy.restore();
    return proxy;
  }

  get port(): number {
    return this.#port;
  }

  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(this.#port);
    return through.toString();
  }

  /** Connections through the proxy open now. */
  get connections(): number {
    return this.#open.size / 2;
  }

  /** Accepts connections again, on the port it had (a free one the first time). */
  async restore(): Promise<void> {
    this.#dropping = false;
    if (this.#server !== undefined) return;
    const server = createServer((client) => {
      if (this.#dropping) {
        this.dropped.push(performance.now());
        client.destroy();
        return;
      }
      this.accepted++;
      const upstream = createConnection(this.#target);
      const pair = { client, upstream };
      this.#pairs.add(pair);
      client.on('close', () => this.#pairs.delete(pair));
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.#open.add(from);
        from.pipe(to);
        from.on('error', () => to.destroy());
        from.on('close', () => {
          this.#open.delete(from);
          to.destroy();
        });
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  /** Refuses new connections and breaks every open one. */
  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server === undefined) return;
    const closed = new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
    for (const socket of this.#open) socket.destroy();
    await closed;
  }

  /** Breaks every open connection, and closes each new one as soon as it comes. */
  async drop(): Promise<void> {
    await this.restore();
    this.#dropping = true;
    for (const socket of this.#open) socket.destroy();
  }

  /** From now on what the server sends on the open connections goes nowhere. */
  mute(): void {
    for (const { client, upstream } of this.#pairs) {
      upstream.unpipe(client);
      upstream.on('data', () => undefined);
    }
  }

  close(): Promise<void> {
    return this.cut();
  }
}
