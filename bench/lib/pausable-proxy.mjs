/**
 * A TCP proxy that can be paused: while paused, bytes in either direction are held (a frozen
 * server: connections stay open, nothing answers); on resume they flow again. The benchmark's
 * copy of test/support/pausable-proxy.ts, for the fault benchmark (bench/faults.mjs).
 */
import net from 'node:net';

export class PausableProxy {
  #paused = false;
  #held = [];
  #sockets = new Set();
  #server;

  constructor(targetHost, targetPort) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
  }

  async start() {
    this.#server = net.createServer((client) => this.#connect(client));
    await new Promise((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return this.#server.address().port;
  }

  pause() {
    this.#paused = true;
  }

  resume() {
    this.#paused = false;
    for (const release of this.#held.splice(0)) release();
  }

  async stop() {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise((resolve) => this.#server?.close(resolve));
  }

  #connect(client) {
    const upstream = net.connect(this.targetPort, this.targetHost);
    for (const socket of [client, upstream]) {
      this.#sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => this.#sockets.delete(socket));
    }
    this.#relay(client, upstream);
    this.#relay(upstream, client);
  }

  #relay(from, to) {
    const forward = (action) => (this.#paused ? this.#held.push(action) : action());
    from.on('data', (chunk) => forward(() => !to.destroyed && to.write(chunk)));
    from.on('close', () => forward(() => to.end()));
  }
}
