/**
 * The routes' JSON schemas (fastify validates request bodies with them) and the OpenAPI 3.1
 * document of `GET /openapi.json`, made from the same schemas so the two cannot disagree.
 */
import { packageVersion } from '../version.js';
import { LEVEL_CHOICES, type ServiceLimits } from './config.js';

/** Longest repository name, model name and revision a request may hold. */
const MAX_NAME = 64;
const MAX_REV = 256;

/** The schema of `POST /v1/localize`'s body (unknown properties refused). */
export function localizeBodySchema(limits: ServiceLimits) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['repository', 'issue'],
    properties: {
      repository: { type: 'string', minLength: 1, maxLength: MAX_NAME, description: 'a configured repository name (GET /v1/repos)' },
      rev: { type: 'string', minLength: 1, maxLength: MAX_REV, description: 'base commit, any git revision (default: the repository\'s default revision)' },
      issue: { type: 'string', minLength: 1, description: 'the issue text: title on the first line, then the body' },
      level: { type: 'string', enum: [...LEVEL_CHOICES], description: 'which rankings to answer (default: the repository\'s, else all)' },
      top: { type: 'integer', minimum: 1, maximum: limits.maxTop, description: 'items per level' },
      model: { type: 'string', minLength: 1, maxLength: MAX_NAME, description: 'learned model: none, default or a configured name' },
      explain: { type: 'boolean', description: 'also answer issue: what the issue text was read as' },
    },
  } as const;
}

const ITEM = {
  type: 'object',
  required: ['id', 'score'],
  properties: {
    id: { type: 'string', description: 'file path, module (path:Class) or function (path:Class.name)' },
    score: { type: 'number', description: 'only the order means something: the learned model\'s raw scores can be negative' },
    startLine: { type: 'integer', description: '1-based first line at the base commit (a module: its first function\'s; a file: its best function\'s)' },
    endLine: { type: 'integer', description: '1-based last line, inclusive' },
    matchedTerms: { type: 'array', items: { type: 'string' } },
    signals: { type: 'array', items: { type: 'string' } },
    evidence: { type: 'array', items: { type: 'string' } },
  },
} as const;

/** `localize --json`'s object (the levels not asked for are absent). */
export const LOCALIZE_ANSWER_SCHEMA = {
  type: 'object',
  required: ['repo', 'commit', 'level', 'index', 'queryMillis', 'stages'],
  properties: {
    repo: { type: 'string', description: 'the repository name' },
    commit: { type: 'string', description: 'the base commit (full SHA)' },
    level: { type: 'string', enum: [...LEVEL_CHOICES] },
    index: {
      type: 'object',
      properties: { built: { type: 'boolean' }, millis: { type: 'number' }, documents: { type: 'integer' }, files: { type: 'integer' }, skipped: { type: 'object', additionalProperties: { type: 'integer' } } },
    },
    queryMillis: { type: 'number' },
    stages: { type: 'array', items: { type: 'string' } },
    matchedQueryTerms: { type: 'integer', description: 'distinct issue words found in the indexed code (0: nothing could match)' },
    rerank: { type: 'object' },
    files: { type: 'array', items: ITEM },
    modules: { type: 'array', items: ITEM },
    functions: { type: 'array', items: ITEM },
    issue: { type: 'object', description: 'with explain: what the issue text was read as: frames, paths, dottedNames, scopedNames, namesInCode (as localize --json --explain)' },
  },
} as const;

const ERROR = { type: 'object', required: ['error'], properties: { error: { type: 'string' } } } as const;
const errors = (codes: Record<string, string>) => Object.fromEntries(Object.entries(codes).map(([code, description]) => [code, { description, content: { 'application/json': { schema: ERROR } } }]));
const json = (schema: unknown, description: string) => ({ description, content: { 'application/json': { schema } } });

/** Optional routes of the service that are registered (src/service/mcp/http-route.ts, web/page.ts). */
export interface OptionalRoutes {
  /** `POST /mcp`: the MCP tools over streamable HTTP. */
  mcp?: boolean;
  /** `GET /`, `/web/*`: the web page and its routes. */
  web?: boolean;
}

/** The OpenAPI 3.1 document of the service. */
export function openApiDocument(limits: ServiceLimits, auth: boolean, routes: OptionalRoutes = {}): Record<string, unknown> {
  const security = auth ? [{ bearer: [] }] : [];
  const unauthorized: Record<string, string> = auth ? { 401: 'missing or wrong bearer token' } : {};
  return {
    openapi: '3.1.0',
    info: { title: 'issueloc serve', version: packageVersion(), description: 'Rank the files, modules and functions of a configured git repository that an issue needs changed.' },
    ...(auth ? { components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } } } : {}),
    paths: {
      '/v1/localize': {
        post: {
          summary: 'Rank files, modules and functions for an issue (the JSON of issueloc localize --json)',
          security,
          requestBody: { required: true, content: { 'application/json': { schema: localizeBodySchema(limits) } } },
          responses: {
            200: json(LOCALIZE_ANSWER_SCHEMA, 'the rankings'),
            ...errors({
              400: 'bad input: a revision that names no commit, an issue without a searchable word, a body against the schema',
              ...unauthorized,
              404: 'no repository of that name is configured',
              413: `body larger than ${limits.maxBodyBytes} bytes`,
              429: 'too many requests in flight (Retry-After)',
              503: 'the index is still being built, or the service is shutting down (Retry-After)',
              504: `not answered within ${limits.timeoutMs / 1000} s`,
            }),
          },
        },
      },
      '/v1/repos': {
        get: {
          summary: 'The configured repositories: name, default revision and commit, defaults, warm indexes', security,
          responses: { 200: json({ type: 'object', properties: { repositories: { type: 'array', items: { type: 'object' } } } }, 'the repositories'), ...errors(unauthorized) },
        },
      },
      '/healthz': { get: { summary: 'Liveness: 200 while serving, 503 while draining', responses: { 200: json({ type: 'object' }, 'serving'), 503: json({ type: 'object' }, 'draining') } } },
      '/metrics': { get: { summary: 'Prometheus metrics', security, responses: { 200: { description: 'text/plain; version=0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } }, ...errors(unauthorized) } } },
      '/openapi.json': { get: { summary: 'This document', responses: { 200: json({ type: 'object' }, 'OpenAPI 3.1') } } },
      ...(routes.mcp ? mcpPaths(security, unauthorized) : {}),
      ...(routes.web ? webPaths(security, unauthorized) : {}),
    },
  };
}

type Security = { bearer: never[] }[];

/** `/mcp`: JSON-RPC 2.0 messages of the Model Context Protocol (stateless streamable HTTP). */
function mcpPaths(security: Security, unauthorized: Record<string, string>) {
  const rpc = { type: 'object', description: 'a JSON-RPC 2.0 message (or a batch: an array of them) of the Model Context Protocol' };
  const notAllowed = { summary: 'Not allowed: the endpoint has no sessions', security, responses: { 405: json(rpc, 'POST each request') } };
  return {
    '/mcp': {
      post: {
        summary: 'The MCP tools localize, explain_item and list_repositories over streamable HTTP (stateless, JSON answers)',
        security,
        requestBody: { required: true, content: { 'application/json': { schema: rpc } } },
        responses: {
          200: json(rpc, 'the JSON-RPC answer; a failed tool call is a result with isError'),
          202: { description: 'notifications only: no answer' },
          403: json(rpc, 'a request from a page of another origin'),
          ...errors(unauthorized),
          429: json(rpc, 'too many tool calls in flight (Retry-After)'),
          503: json(rpc, 'shutting down (Retry-After)'),
        },
      },
      get: notAllowed,
      delete: notAllowed,
    },
  };
}

/** `/` and `/web/*`: the web page, its files and the routes it calls. */
function webPaths(security: Security, unauthorized: Record<string, string>) {
  const file = (type: string, what: string) => ({ get: { summary: `${what} (no token needed)`, responses: { 200: { description: what, content: { [type]: { schema: { type: 'string' } } } } } } });
  return {
    '/': file('text/html', 'The web page: an issue in, the ranked items with their lines out'),
    '/web/app.js': file('text/javascript', 'The page\'s script'),
    '/web/style.css': file('text/css', 'The page\'s style sheet'),
    '/web/issue': {
      post: {
        summary: 'A dropped issue file read as localize --issue-file reads it', security,
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', additionalProperties: false, required: ['raw'], properties: { raw: { type: 'string' }, name: { type: 'string' } } } } } },
        responses: { 200: json({ type: 'object', properties: { text: { type: 'string' }, format: { type: 'string' }, warning: { type: 'string' } } }, 'the issue text'), ...errors({ 400: 'not an issue file', ...unauthorized }) },
      },
    },
    '/web/preview': {
      post: {
        summary: 'The lines of ranked items at a commit, their matched terms marked', security,
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['repository', 'commit', 'items'], properties: { repository: { type: 'string' }, commit: { type: 'string', description: 'full SHA' }, items: { type: 'array', items: { type: 'object', required: ['id'] } } } } } } },
        responses: { 200: json({ type: 'object', properties: { previews: { type: 'array', items: { type: 'object' } } } }, 'one preview per item'), ...errors({ 400: 'a body against the schema, a commit not in the repository', ...unauthorized, 404: 'no repository of that name', 504: 'not answered in time' }) },
      },
    },
  };
}
