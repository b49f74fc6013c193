import type { Socket } from 'node:net';

// A connection closed while its client is still sending a body nobody read is reset by the
// kernel, and a reset can throw away the end of the answer before the client has read it (a
// GET sent with a large body, a form posted after its session ended). So such a connection
// closes its own side first and reads, and drops, what still comes, until the client closes
// its side or a short while has passed: the "lingering close" of long-lived web servers.

/** How long a closing connection goes on reading what its client still sends. */
const LINGER_MS = 2_000;

const lingering = new WeakSet<Socket>();

/** Has the socket, once its answer is written and it is to close, linger rather than close at once. */
export function lingerOnClose(socket: Socket): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  // Node's server ends a connection whose answer said `Connection: close` with destroySoon().
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    this.once('end', () => this.destroy());
    this.resume();
  };
}
