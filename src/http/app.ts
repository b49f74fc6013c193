import { redactToken } from './redact-url.ts';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { deskContext, type DeskContext, type Deps } from '../domain/context.ts';
import { DeskError } from '../domain/errors.ts';
import { noteKeyUse, verifyKey } from '../domain/keys/verify.ts';
import { storeTrouble } from '../store/trouble.ts';
import type { ApiKeyRow } from '../store/schema.ts';
import { askForKey, presentedKey } from './auth.ts';
import { clientErrorResponse, refuseConnect, refuseExpectation, sendError, UNSPOKEN_VERSION } from './errors.ts';
import { sharedSerializers } from './serializers.ts';
import { readJsonBodies, refusedUnread, setAsideNoMediaType, UnreadBody } from './body.ts';
import { replayUnread } from './idempotency.ts';
import { limitStore, registerLimits } from './limits.ts';
import { firstValues } from './query.ts';
import { screenAddress } from './paths.ts';
import { lingerOnClose } from './linger.ts';
import { openapiOptions } from './openapi.ts';
import { SHARED_SCHEMAS } from './schemas.ts';
import { metaRoutes } from './routes/meta.ts';
import { workRoutes } from './routes/work/index.ts';
import { arrangementRoutes } from './routes/arrangements/index.ts';
import { deskRoutes } from './routes/desk.ts';
import { recordRoutes } from './routes/record.ts';
import { chatRoutes } from './routes/chat.ts';
import { screen } from '../screen/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The desk context, set once the key is verified. */
    ctx: DeskContext;
    /** The verified key, to record its use once the request is answered. */
    apiKey?: ApiKeyRow;
  }
  interface FastifyContextConfig {
    /** Answers without a key. */
    public?: boolean;
  }
}

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /** Log one line per request, `GET /api/v1/work 200 in 4 ms`, instead of Fastify's two. */
  requestLines?: boolean;
  /** True once the server is stopping: every new request is answered 503. */
  draining?: () => boolean;
  /** How long a client may take to send a whole request, headers and body (REQUEST_TIME_MS). */
  requestTimeMs?: number;
}

/**
 * How long a client may take to send a whole request: Node's own default, which Fastify's
 * `requestTimeout: 0` would turn off. A client that sends a body a byte at a time would otherwise
 * hold its connection for ever. The answer's time is not counted: a run takes minutes.
 */
export const REQUEST_TIME_MS = 300_000;
/** How long a client may take to send a request's headers: Node's own default. */
const HEADERS_TIME_MS = 60_000;

function withRedactedUrls(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger || typeof logger !== 'object') return logger;
  return {
    ...logger,
    serializers: {
      req: (req: { method: string; url: string; hostname?: string; ip?: string }) => ({
        method: req.method,
        url: redactToken(req.url),
        host: req.hostname,
        remoteAddress: req.ip,
      }),
    },
  } as FastifyServerOptions['logger'];
}

/** Builds the whole HTTP service without listening, so tests can inject or listen as they like. */
export async function buildApp(deps: Deps, opts: AppOptions = {}): Promise<FastifyInstance> {
  const requestTime = opts.requestTimeMs ?? REQUEST_TIME_MS;
  const app = Fastify({
    logger: withRedactedUrls(opts.logger ?? false),
    ...(opts.requestLines ? { logController: new LogController({ disableRequestLogging: true }) } : {}),
    bodyLimit: deps.config.bodyLimitBytes,
    // The id is the server's own, never one a caller sends: it is what ties a 500 to its cause
    // in the log, and a caller's could be reused, or made to point at another request's line.
    requestIdHeader: false,
    // The client's address is what limits count against: behind a reverse proxy, the one its
    // X-Forwarded-For names, believed only from the proxies DESK_TRUSTED_PROXIES lists.
    trustProxy: deps.config.trustedProxies.length > 0 ? deps.config.trustedProxies : false,
    genReqId: () => randomUUID(),
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, validateSchema: false } },
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers() } },
    // An id of any length reaches its route, which checks the key first and then finds no such
    // row (D20): the router's own refusal of a long path part would answer before either.
    routerOptions: { ignoreTrailingSlash: true, querystringParser: firstValues, maxParamLength: 16_384 },
    rewriteUrl: (req) => screenAddress(req.url ?? '/'),
    // POST /work/{id}/run takes minutes and /chat up to four: no server-side limit may cut an
    // answer short. Each slow verb keeps its own limit (DESK_RUN_TIMEOUT, DESK_CHAT_TIMEOUT).
    connectionTimeout: 0,
    handlerTimeout: 0,
    // A request that reaches a closing server (pipelined, or on a keep-alive connection busy when
    // the close began) is turned away by the draining hook below, in the envelope with its
    // Retry-After, not by the framework's own bare 503.
    return503OnClosing: false,
    // Only the request's arrival is timed; Node looks at its connections every so often, and a
    // shorter time (a test's) is looked at as often as it needs.
    requestTimeout: requestTime,
    http: {
      // Said in the envelope below, where Node's own refusal is a bare 400.
      requireHostHeader: false,
      headersTimeout: Math.min(HEADERS_TIME_MS, requestTime),
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTime / 4))),
    },
    // Refused by Node's parser before any route: still the envelope (P-headers-3).
    clientErrorHandler: (err, socket) => {
      if ((err as NodeJS.ErrnoException).code === 'ECONNRESET' || socket.destroyed) return;
      if (!socket.writable) return socket.destroy(err);
      const refusal = clientErrorResponse(err as NodeJS.ErrnoException);
      // Bytes after a request's body are read as the next request: the one before, still being
      // answered (Node keeps it as the socket's `_httpMessage`), has its answer sent first, or its
      // client would be told of a fault in what came after a write that was done.
      // A request whose own body stopped coming is that answer's: it is refused now.
      const pending = (socket as { _httpMessage?: ServerResponse })._httpMessage;
      if (pending && !pending.writableFinished && pending.req.complete)
        pending.once('close', () => (socket.writable ? socket.end(refusal) : socket.destroy()));
      else socket.end(refusal);
    },
    // A path that is not valid URL text (`/work/%ff`) names nothing: 404 in the envelope, like
    // any other id that is not a row (D20), rather than Fastify's own 400. The router refuses it
    // before any hook, so the headers every answer carries are set here.
    frameworkErrors: (err, request, reply) => {
      reply.header('x-request-id', request.id).header('x-content-type-options', 'nosniff');
      if (request.url.startsWith('/api')) reply.header('cache-control', 'no-store');
      const e =
        err.code === 'FST_ERR_BAD_URL'
          ? new DeskError('not_found', 'Nothing here: the path is not valid URL text.')
          : err;
      sendError(e, request, reply);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // A client that closes its side once it has sent a request still reads the answer: Node's
  // default drops the request then, though its route runs and its write is done unanswered.
  (app.server as { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen = true;
  app.server.on('checkExpectation', refuseExpectation);
  app.server.on('connect', refuseConnect);
  readJsonBodies(app);
  if (opts.requestLines) {
    app.addHook('onResponse', async (request, reply) => {
      // A failure's line names the id its answer gives, so one can be found from the other.
      const id = reply.statusCode >= 500 ? ` (request ${request.id})` : '';
      request.log.info(
        `${request.method} ${redactToken(request.url)} ${reply.statusCode} in ${Math.round(reply.elapsedTime)} ms${id}`,
      );
    });
  }

  // HEAD is answered as GET would be, its length too: the message names GET for it.
  const noRoute = (request: FastifyRequest) =>
    new DeskError(
      'not_found',
      `No route ${request.method === 'HEAD' ? 'GET' : request.method} ${request.url.split('?')[0]}.`,
    );
  // A path no route serves is 404 whatever its body: the body of a request that reaches no
  // route is still parsed, and its fault must not answer for the path.
  const answerNoRoute = (request: FastifyRequest, reply: FastifyReply) => {
    // A key may have come with it: no shared cache keeps what is said to a key.
    if (request.url.startsWith('/api')) reply.header('cache-control', 'no-store');
    return sendError(noRoute(request), request, reply);
  };
  app.setErrorHandler(async (err, request, reply) => {
    // Fastify closes the connection after any body it could not parse, in case more of it is
    // coming; a body refused here was read to its end, and a request sent after it on the
    // connection (already read, and run) must still be answered.
    if (err instanceof UnreadBody) reply.removeHeader('connection');
    if (request.is404) return answerNoRoute(request, reply);
    if (refusedUnread(err) && (await replayUnread(request, reply))) return reply;
    return sendError(err, request, reply);
  });
  app.setNotFoundHandler(answerNoRoute);
  // Hooks that run on every request are written with callbacks: an async hook costs a promise
  // and a turn of the microtask queue each, on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    // A stopping server still listens while requests in flight finish, and turns new ones away.
    if (opts.draining?.()) {
      reply.header('retry-after', '5').header('connection', 'close');
      sendError(new DeskError('unavailable', 'The desk is stopping; try again in a moment.'), request, reply);
      return;
    }
    // Node's parser takes HTTP/0.9 and HTTP/2.0 request lines and answers them as 1.1 (P-headers-3).
    const version = request.raw.httpVersion;
    if (version !== '1.1' && version !== '1.0') {
      reply.header('connection', 'close');
      sendError(new DeskError('bad_request', UNSPOKEN_VERSION), request, reply);
      return;
    }
    if (request.headers.host === undefined && version === '1.1') {
      sendError(
        new DeskError('bad_request', 'The request names no Host, which HTTP/1.1 asks of every request.'),
        request,
        reply,
      );
      return;
    }
    done();
  });
  // An answer given before the request's body was read (a form with no session) ends the
  // connection: what is left of the body would otherwise be read as the rest of that request,
  // and one that never came in time be answered a second time.
  app.addHook('onSend', (request, reply, payload, done) => {
    const hasBody =
      request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
    if (hasBody && request.body === undefined && !request.raw.complete) {
      reply.header('connection', 'close');
      lingerOnClose(request.raw.socket);
    }
    done(null, payload);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined && (request.method === 'POST' || request.method === 'PUT')) request.body = {};
    done();
  });

  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, openapiOptions);

  const limits = await limitStore(app, deps.config);
  await app.register(
    async (api) => {
      api.addHook('onRequest', async (request) => {
        setAsideNoMediaType(request);
        if (request.routeOptions.config?.public) return;
        try {
          const { key: presented, keyless } = presentedKey(request);
          // With no key at all the request counts against its address, not as a refused key.
          request.keyless = keyless;
          // Whatever was committed before this request arrived is what it reads.
          const seen = await deps.store.fresh();
          const { key, desk } = await verifyKey(
            deps.store.db,
            presented,
            deps.clock.now().toISOString(),
            seen,
            askForKey(request.method),
          );
          request.apiKey = key;
          request.ctx = deskContext(
            deps,
            desk,
            { type: 'key', keyId: key.id, keyPrefix: key.prefix, keyName: key.name },
            deps.store.db,
            seen,
          );
        } catch (err) {
          request.authError = err;
        }
      });
      await registerLimits(api, deps.config, limits, 'api');
      // An answer given for a key is that desk's alone: no shared cache may keep it.
      api.addHook('onSend', (request, reply, payload, done) => {
        if (!request.routeOptions.config?.public) reply.header('cache-control', 'no-store');
        const noted =
          request.apiKey && reply.statusCode < 400
            ? noteKeyUse(deps.store.db, request.apiKey, deps.clock.now().toISOString())
            : null;
        if (!noted) return done(null, payload);
        // The stamp is bookkeeping ("last used", to the minute): a store that cannot take it now
        // (another process's write, a full disk) does not turn the answer the desk gave into a 503.
        noted.then(
          () => done(null, payload),
          (err: Error) => {
            const trouble = storeTrouble(err);
            if (!trouble) return done(err);
            request.log.warn(`A key's last use was not recorded: ${trouble.log}.`);
            done(null, payload);
          },
        );
      });

      await api.register(metaRoutes);
      await api.register(workRoutes);
      await api.register(arrangementRoutes);
      await api.register(deskRoutes);
      await api.register(recordRoutes);
      await api.register(chatRoutes);
    },
    { prefix: '/api/v1' },
  );

  // An API path no route serves answers as the API does (404 in the envelope, no screen
  // headers), rather than through the screen's catch-all and its hooks.
  for (const url of ['/api', '/api/*'])
    app.get(url, { schema: { hide: true } }, (_request, reply) => reply.callNotFound());

  // The owner's screen at `/`: pages and forms over the same verbs (src/screen).
  await app.register(screen(deps, limits));

  return app;
}
