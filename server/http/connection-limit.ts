// A bound on the connections one client holds open, so that one client cannot take the file
// descriptors every other client needs. The client is the socket's peer (never X-Forwarded-For,
// which the client writes), counted as the throttles count it: an IPv4 address, an IPv6 /64.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { throttledSource } from '../shared/source-address.ts';

/** Closes at once, before anything is read from it, a connection beyond `max` open from one client. */
export function limitConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  // Ahead of node's own listener, so that it never reads from a refused connection.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) {
      socket.destroy();
      return;
    }
    const client = throttledSource(address);
    const count = open.get(client) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(client, count + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    });
  });
}
