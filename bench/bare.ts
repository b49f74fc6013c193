// The yardstick: a bare Fastify server answering each path with the very bytes Desk sent for it.
// Usage: tsx bench/bare.ts FILE, where FILE holds [{ path, body }]; prints "listening PORT".
import fs from 'node:fs';
import Fastify from 'fastify';

const answers = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as Array<{ path: string; body: string }>;
const app = Fastify({ logger: false });
for (const a of answers) {
  app.get(a.path, async (_request, reply) => reply.type('application/json; charset=utf-8').send(a.body));
}
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
