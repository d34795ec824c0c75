import net from 'node:net';

/**
 * A TCP proxy in front of a database that can be paused: while paused, bytes in either direction
 * are held (a frozen server: connections open, nothing answers), and on resume they flow again,
 * including the close of a connection the client gave up on meanwhile.
 */
export class PausableProxy {
  private paused = false;
  private readonly held: Array<() => void> = [];
  private readonly sockets = new Set<net.Socket>();
  private server?: net.Server;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<number> {
    this.server = net.createServer((client) => this.connect(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    for (const release of this.held.splice(0)) release();
  }

  /** Cuts every open connection, as a server that dies does; new connections are accepted again. */
  cut(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private connect(client: net.Socket): void {
    const upstream = net.connect(this.targetPort, this.targetHost);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
    }
    this.relay(client, upstream);
    this.relay(upstream, client);
  }

  /** Forwards data and the end of `from` to `to`, holding both while paused. */
  private relay(from: net.Socket, to: net.Socket): void {
    const forward = (action: () => void) => (this.paused ? this.held.push(action) : action());
    from.on('data', (chunk) => forward(() => !to.destroyed && to.write(chunk)));
    from.on('close', () => forward(() => to.end()));
  }
}
