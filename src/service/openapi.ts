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

/** The OpenAPI 3.1 document of the service. */
export function openApiDocument(limits: ServiceLimits, auth: boolean): Record<string, unknown> {
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
    },
  };
}
