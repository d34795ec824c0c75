/**
 * A TCP proxy on a fixed port in front of a server that may stop and start again on another
 * port: the SDK keeps one base URL while the test stops the real server (connections refused),
 * and restarts it (a fresh app on the same database).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export class TcpProxy {
  /** Where connections go; undefined: refused (closed at once). */
  target: number | undefined;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const server = createServer((client) => {
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => client.destroy());
      if (this.target === undefined) {
        client.destroy();
        return;
      }
      const upstream = connect(this.target, '127.0.0.1');
      this.sockets.add(upstream);
      upstream.on('close', () => {
        this.sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  /** Drops every open connection (what a stopped server does to its clients). */
  dropConnections(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  async stop(): Promise<void> {
    this.dropConnections();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
