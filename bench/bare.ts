// The yardstick: a bare Fastify server answering each path with the very bytes Desk sent for it.
// Usage: tsx bench/bare.ts FILE, where FILE holds [{ path, body }]; prints "listening PORT".
// `PUT /answers` with { path, body } replaces a path's bytes: the desk's answers to some reads
// grow as its passes act during a run, and the yardstick must keep serving what the desk sends.
import fs from 'node:fs';
import Fastify from 'fastify';

const answers = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as Array<{ path: string; body: string }>;
const bodies = new Map(answers.map((a) => [a.path, a.body]));
const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
for (const a of answers) {
  app.get(a.path, async (_request, reply) => reply.type('application/json; charset=utf-8').send(bodies.get(a.path)));
}
app.put('/answers', async (request, reply) => {
  const { path, body } = request.body as { path: string; body: string };
  if (!bodies.has(path)) return reply.code(404).send();
  bodies.set(path, body);
  return reply.code(204).send();
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
