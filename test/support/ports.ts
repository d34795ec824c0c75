/**
 * A port for a server a test starts as a process. Chosen below Linux's ephemeral range (32768 and
 * up), where every outgoing connection of the suites running side by side takes its local port:
 * a port picked in that range can be taken by a client socket before the server binds it, and the
 * server then stops with "address in use". Two test servers may still meet here, rarely.
 */
export function serverPort(): number {
  return 20000 + Math.floor(Math.random() * 12000);
}
