import net from 'node:net';

// A TCP proxy in front of a server (PostgreSQL): a test cuts it to play a database that goes
// away, and lets it through again to play one that comes back.

export interface TcpProxy {
  /** The URL `target` rewritten to reach the server through the proxy. */
  url: string;
  /** Resolves on the first chunk a client sends that contains `text` (a statement's words). */
  sent(text: string): Promise<void>;
  /** Drops every connection and refuses new ones until `restore`. */
  cut(): void;
  /** Holds every connection, old and new, open and silent: a server that has stopped answering. */
  pause(): void;
  /** Lets connections through again; those held by `pause` carry on where they stopped. */
  restore(): void;
  close(): Promise<void>;
}

export async function tcpProxy(target: string): Promise<TcpProxy> {
  const to = new URL(target);
  let open = true;
  let paused = false;
  const sockets = new Set<net.Socket>();
  const watchers: { text: string; seen: () => void }[] = [];
  // Each connection let through, with the server's end; while paused, new ones wait with none.
  const links = new Map<net.Socket, net.Socket | null>();
  const flow = (client: net.Socket, upstream: net.Socket) => {
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
    upstream.resume();
  };
  const link = (client: net.Socket) => {
    const upstream = net.connect(Number(to.port || 5432), to.hostname);
    links.set(client, upstream);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        links.delete(client);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      for (const w of watchers.splice(0))
        if (chunk.includes(w.text)) w.seen();
        else watchers.push(w);
    });
    flow(client, upstream);
  };
  const server = net.createServer((client) => {
    if (!open) return void client.destroy();
    if (paused) {
      client.pause();
      sockets.add(client);
      links.set(client, null);
      client.on('error', () => undefined);
      return;
    }
    link(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    sent: (text) => new Promise((seen) => watchers.push({ text, seen })),
    cut: () => {
      open = false;
      for (const s of sockets) s.destroy();
    },
    pause: () => {
      paused = true;
      for (const s of sockets) {
        s.unpipe();
        s.pause();
      }
    },
    restore: () => {
      open = true;
      if (!paused) return;
      paused = false;
      for (const [client, upstream] of [...links])
        if (client.destroyed) links.delete(client);
        else if (upstream) flow(client, upstream);
        else link(client);
    },
    close: async () => {
      open = false;
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
