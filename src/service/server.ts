/**
 * The HTTP server of `issueloc serve` (fastify): `POST /v1/localize`, `GET /v1/repos`,
 * `GET /healthz`, `GET /metrics`, `GET /openapi.json`, on a {@link ServiceBackend}.
 *
 * Limits: bodies over `maxBodyBytes` → 413 (reading stops there); a body against the schema →
 * 400; more than `concurrency` pieces of work in flight (localize requests here, MCP calls and
 * previews on the routes added later: one {@link Admission}) → 429 with `Retry-After`; a request
 * not answered within `timeoutMs` → 504 (its work still holds its slot until done, so the bound
 * holds; a request whose caller left before its turn is not run); with a token, every route but
 * `/healthz` and `/openapi.json` needs `Authorization: Bearer <token>` (compared in constant
 * time) → else 401; without one, a Host that is not a loopback name or an allowed host → 403 on
 * every route (DNS rebinding). While draining (SIGTERM), the listener stays open until the work
 * in flight ends: new work gets 503, `/healthz` 503 `draining`, and every answer closes its connection.
 * Errors are `{"error": "<one line>"}`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { ServiceLimits } from './config.js';
import { Admission, admitted } from './admission.js';
import type { LocalizeRequest, ServiceBackend } from './backend.js';
import { serverErrorText, ServiceError, statusOf, type Redact } from './errors.js';
import { ServiceMetrics } from './metrics.js';
import { localizeBodySchema, openApiDocument } from './openapi.js';
import { EMPTY_ISSUE_MESSAGE, hasLetterOrDigit } from '../text/parsed-issue.js';

/** Options of {@link buildServer}. */
export interface ServerOptions {
  backend: ServiceBackend;
  limits: ServiceLimits;
  /** Bearer token every route but `/healthz` and `/openapi.json` needs (default: none). */
  token?: string;
  /**
   * Host names (no port) requests may be sent to besides 127.0.0.1, localhost and [::1], when no
   * token is set: the listening address and `--allow-host` names. Any other Host gets 403 (a page
   * on another site reaching this server through DNS rebinding sends its own name).
   */
  allowedHosts?: readonly string[];
  /** Takes server paths out of error answers (errors.ts `serverPathRedactor`; default: none). */
  redact?: Redact;
  /** Where the errors of 500 answers are told, one line each without the `issueloc: ` prefix (default stderr). */
  onInternalError?: (message: string) => void;
}

/** A built server: fastify's instance, and {@link drain} for a graceful stop. */
export interface Service {
  app: FastifyInstance;
  /** The admission bound of every route that does work (routes added later use it too: /mcp, /web/preview). */
  admission: Admission;
  /** The backend with each localize call under {@link admission} (for routes added later). */
  backend: ServiceBackend;
  /** Pieces of work in flight now. */
  inFlight(): number;
  /**
   * Refuses new work (503; `/healthz` answers 503 `draining`, every answer closes its connection),
   * waits up to `graceMs` for the work in flight, then closes the listener and the idle connections.
   */
  drain(graceMs?: number): Promise<void>;
}

/** How much sooner than the request timeout a request stops waiting for an index build (at most a tenth of it). */
const BUILD_WAIT_MARGIN_MS = 200;

/** Routes whose answers need no token (and those registered with `config: { open: true }`: the web page). */
const OPEN_ROUTES = new Set(['/healthz', '/openapi.json']);

/** Builds the server (not listening yet: `app.listen`). */
export function buildServer(options: ServerOptions): Service {
  const { backend, limits } = options;
  const internal = options.onInternalError ?? ((m: string) => process.stderr.write(`issueloc: ${m}\n`));
  const app = Fastify({
    bodyLimit: limits.maxBodyBytes,
    requestTimeout: limits.timeoutMs,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    logger: false,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false } },
  });
  const redact = options.redact ?? ((m: string) => m);
  const metrics = new ServiceMetrics(() => backend.stats());
  const checkToken = options.token !== undefined ? tokenChecker(options.token) : undefined;
  const admission = new Admission(limits.concurrency);
  let turns: Promise<void> = Promise.resolve();
  const started = Date.now();

  const hostAllowed = options.token === undefined ? hostChecker(options.allowedHosts ?? []) : undefined;
  // hooks in callback form: each request passes them without a promise (an answer sent from
  // onRequest ends the request there: `done` is not called)
  app.addHook('onRequest', (request, reply, done) => {
    (request as TimedRequest).startedAt = performance.now();
    if (hostAllowed && !hostAllowed(request.headers.host)) {
      reply.code(403).send({ error: `Host ${oneLine(request.headers.host ?? '').slice(0, 100)} is not an address of this server (a DNS-rebinding page?): serve --allow-host NAME adds one` });
      return;
    }
    if (checkToken && !OPEN_ROUTES.has(request.routeOptions.url ?? '') && (request.routeOptions.config as { open?: boolean }).open !== true && !checkToken(request.headers.authorization)) {
      reply.header('www-authenticate', 'Bearer');
      reply.code(401).send({ error: 'missing or wrong bearer token (Authorization: Bearer <token>)' });
      return;
    }
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (admission.isDraining) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const t0 = (request as TimedRequest).startedAt ?? performance.now();
    metrics.observe(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, (performance.now() - t0) / 1000);
    done();
  });
  app.setErrorHandler((error: Error & { statusCode?: number; validation?: SchemaProblem[]; validationContext?: string }, _request, reply) => {
    const status = error.validation ? 400 : error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : statusOf(error);
    if (error instanceof ServiceError && error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
    // a 500 (here or from a worker: a full disk, a bug) is one line on the server's stderr; its answer names no server path
    if (status === 500 || (status > 500 && !(error instanceof ServiceError))) {
      const text = serverErrorText(error);
      internal(text.client === 'internal error' ? `internal error: ${text.log}` : `server error: ${text.log}`);
      return reply.code(500).send({ error: text.client });
    }
    return reply.code(status).send({ error: redact(oneLine(error.validation ? schemaMessage(error.validation, error.validationContext, error.message) : error.message)) });
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: `no route ${request.method} ${oneLine(request.url).slice(0, 200)}` }));

  app.post('/v1/localize', { schema: { body: localizeBodySchema(limits) } }, async (request: FastifyRequest<{ Body: LocalizeRequest }>, reply: FastifyReply) => {
    const t0 = performance.now();
    if (!hasLetterOrDigit(request.body.issue)) throw new ServiceError(EMPTY_ISSUE_MESSAGE, 400);
    // a query on this thread runs to its end without yielding: queries start one per turn of the
    // event loop, so the requests that arrive meanwhile reach this handler and are counted
    const work = admission.run(async () => {
      await (turns = turns.then(() => new Promise<void>(setImmediate)));
      // a caller gone while its request waited for its turn costs nothing more
      if (reply.raw.destroyed) throw new ServiceError('the caller went away', 499);
      // an index still being built is told as such (503, Retry-After) just before the 504 would be
      return backend.localize(request.body, limits.timeoutMs - Math.min(BUILD_WAIT_MARGIN_MS, limits.timeoutMs / 10));
    });
    const body = await withinMs(work, limits.timeoutMs, () => new ServiceError(`not answered within ${limits.timeoutMs / 1000} s`, 504));
    reply.header('server-timing', `localize;dur=${(performance.now() - t0).toFixed(1)}`);
    return reply.type('application/json; charset=utf-8').send(body);
  });
  app.get('/v1/repos', async () => ({ repositories: await backend.repos() }));
  app.get('/healthz', async (_request, reply) => reply.code(admission.isDraining ? 503 : 200).send({
    status: admission.isDraining ? 'draining' : 'ok', uptimeSeconds: Math.round((Date.now() - started) / 1000), inFlight: admission.inFlight,
  }));
  app.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
  // made at the first request: the MCP endpoint and the web page are registered after buildServer
  let openapi: string | undefined;
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(openapi ??= JSON.stringify(openApiDocument(limits, options.token !== undefined, {
    mcp: app.hasRoute({ method: 'POST', url: '/mcp' }), web: app.hasRoute({ method: 'POST', url: '/web/preview' }),
  }))));

  return {
    app,
    admission,
    backend: admitted(backend, admission),
    inFlight: () => admission.inFlight,
    async drain(graceMs = limits.timeoutMs + 1000) {
      admission.drain();
      // the listener stays open meanwhile: a new request is answered 503 (and its connection closed)
      await admission.idle(graceMs);
      const closing = app.close();
      // a keep-alive connection whose request was in flight turns idle only after its answer
      const idle = setInterval(() => app.server.closeIdleConnections(), 50);
      try {
        await closing;
      } finally {
        clearInterval(idle);
      }
    },
  };
}

interface TimedRequest extends FastifyRequest { startedAt?: number }

/** One problem ajv found in a request (fastify's `error.validation`). */
interface SchemaProblem { keyword: string; instancePath: string; params: Record<string, unknown> }

/**
 * A request against its schema, in words that name the field: ajv's own message for an unknown
 * field (`body must NOT have additional properties`) does not; a value outside a list is told
 * with the list.
 */
export function schemaMessage(problems: readonly SchemaProblem[], context = 'body', message: string): string {
  const unknown = problems.find((p) => p.keyword === 'additionalProperties');
  const field = unknown?.params.additionalProperty;
  const allowed = problems.find((p) => p.keyword === 'enum')?.params.allowedValues;
  if (problems.length === 1 && Array.isArray(allowed)) return `${message}: ${allowed.join(', ')}`;
  if (!unknown || typeof field !== 'string') return message;
  return `${context}${unknown.instancePath.replaceAll('/', '.')}: unknown field ${JSON.stringify(field.slice(0, 100))}`;
}

/** Host names always served: the loopback addresses. */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]', '::1'];

/** A check of the Host header: its name (port aside) is a loopback name or one of `allowed`; a request without Host passes (no browser sends one). */
export function hostChecker(allowed: readonly string[]): (host: string | undefined) => boolean {
  const names = new Set([...LOOPBACK_HOSTS, ...allowed].map((h) => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h).toLowerCase()));
  return (host) => {
    if (host === undefined) return true;
    const name = /^(\[[^\]]*\]|[^:]*)(:\d+)?$/.exec(host.trim().toLowerCase())?.[1];
    return name !== undefined && names.has(name.replace(/\.$/, ''));
  };
}

/** A check of `Authorization` against `Bearer <token>` in constant time (digests of equal length). */
function tokenChecker(token: string): (header: string | undefined) => boolean {
  const expected = createHash('sha256').update(`Bearer ${token}`).digest();
  return (header) => timingSafeEqual(createHash('sha256').update(header ?? '').digest(), expected);
}

const oneLine = (s: string) => s.split('\n')[0].replace(/[\u0000-\u001f\u007f]/g, ' ');

/** `p`, or the error `late()` after `ms` (p goes on). */
function withinMs<T>(p: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(late()), ms); });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
