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
  restore(): void;
  close(): Promise<void>;
}

export async function tcpProxy(target: string): Promise<TcpProxy> {
  const to = new URL(target);
  let open = true;
  let paused = false;
  const sockets = new Set<net.Socket>();
  const watchers: { text: string; seen: () => void }[] = [];
  const server = net.createServer((client) => {
    if (!open) return void client.destroy();
    if (paused) {
      sockets.add(client);
      client.on('error', () => undefined);
      return;
    }
    const upstream = net.connect(Number(to.port || 5432), to.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      for (const w of watchers.splice(0))
        if (chunk.includes(w.text)) w.seen();
        else watchers.push(w);
    });
    client.pipe(upstream);
    upstream.pipe(client);
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
    },
    close: async () => {
      open = false;
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
