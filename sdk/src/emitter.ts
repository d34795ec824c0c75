type Listener = (...args: unknown[]) => void;

/** A small typed event emitter (no Node import, so it runs in browsers). Listener errors are swallowed. */
export class Emitter<E extends { [K in keyof E]: unknown[] }> {
  /** Listeners by event; each set holds listeners of that event's arguments only (see `on`). */
  private readonly listeners = new Map<keyof E, Set<Listener>>();

  /** Adds a listener; returns the function that removes it. */
  on<K extends keyof E>(event: K, listener: (...args: E[K]) => void): () => void {
    let set = this.listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener);
    return () => this.off(event, listener);
  }

  /** Adds a listener called at most once. */
  once<K extends keyof E>(event: K, listener: (...args: E[K]) => void): () => void {
    const off = this.on(event, (...args: E[K]) => {
      off();
      listener(...args);
    });
    return off;
  }

  off<K extends keyof E>(event: K, listener: (...args: E[K]) => void): void {
    this.listeners.get(event)?.delete(listener as Listener);
  }

  listenerCount<K extends keyof E>(event: K): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  protected emit<K extends keyof E>(event: K, ...args: E[K]): void {
    const set = this.listeners.get(event);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        listener(...(args as unknown[]));
      } catch {
        // a failing listener must not break the SDK
      }
    }
  }
}
