/**
 * The web page of `issueloc serve` at `/`: pick a repository, paste an issue or drop an issue
 * file, see the ranked files, modules and functions with their evidence and function previews.
 * The page is three static files (./assets, shipped in the package) that call the service's JSON
 * routes; it needs no framework and loads nothing from elsewhere (a strict Content-Security-Policy
 * says so to the browser). Its two helper routes:
 *
 * - `POST /web/issue` `{ raw, name? }` → `{ text, format, warning? }`: a dropped file read as
 *   `localize --issue-file` reads it (plain text, `gh issue view --json`, a Jira REST issue).
 * - `POST /web/preview` `{ repository, commit, items: [{ id, terms?, lines? }] }` →
 *   `{ previews: [{ id, path, startLine?, endLine?, lines?, marks?, more? }] }` (./preview.ts), on a
 *   preview thread kept between requests with its repositories open, ended at the request timeout
 *   (504; ./preview-thread.ts), bounded in items (300), bytes read and paths looked up.
 *
 * The page and its assets need no token (they hold no data); the JSON routes do when the
 * service has one.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { readSingleIssue } from '../../issues/single-issue.js';
import { GitRepo } from '../../repo/git.js';
import { REMOTE_REVISIONS } from '../../repo/revision.js';
import type { RepositoryConfig } from '../config.js';
import { ServiceError } from '../errors.js';
import type { Admission } from '../admission.js';
import type { PreviewItem } from './preview.js';
import { PreviewThreads } from './preview-thread.js';

/** The folder of the page's files (src/service/web/assets, listed in package.json `files`). */
const ASSETS = fileURLToPath(new URL('../../../../src/service/web/assets/', import.meta.url));

/** The page's static files: route → file and content type. */
const STATIC: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/web/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/web/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

/** Scripts and styles from this origin only; no inline script, no plug-ins, no framing. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Most items one preview request may ask for (three levels of the largest `top` shown). */
const MAX_PREVIEW_ITEMS = 300;

const previewBodySchema = {
  type: 'object', additionalProperties: false, required: ['repository', 'commit', 'items'],
  properties: {
    repository: { type: 'string', minLength: 1, maxLength: 64 },
    commit: { type: 'string', pattern: '^[0-9a-f]{40}$' },
    items: {
      type: 'array', maxItems: MAX_PREVIEW_ITEMS,
      items: {
        type: 'object', additionalProperties: false, required: ['id'],
        properties: {
          id: { type: 'string', minLength: 1, maxLength: 4096 },
          terms: { type: 'array', maxItems: 64, items: { type: 'string', maxLength: 256 } },
          lines: { type: 'boolean' },
        },
      },
    },
  },
} as const;

const issueBodySchema = {
  type: 'object', additionalProperties: false, required: ['raw'],
  properties: { raw: { type: 'string' }, name: { type: 'string', maxLength: 256 } },
} as const;

/** What {@link registerWebPage} needs: the configured repositories (their paths stay on the server). */
export interface WebPageOptions {
  repositories: ReadonlyMap<string, RepositoryConfig>;
  /** Longest time a preview may take (ms): past it 504 and its thread is ended (default 30 s). */
  timeoutMs?: number;
  /** The server's admission bound (a preview holds one slot while it runs). */
  admission?: Admission;
}

/**
 * Adds the page (`GET /`, `/web/app.js`, `/web/style.css`) and its routes `POST /web/issue`,
 * `POST /web/preview` to a server built by `buildServer`. The git processes it opens close with
 * the server.
 */
export function registerWebPage(app: FastifyInstance, options: WebPageOptions): void {
  const security = { 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
  for (const [route, { file, type }] of Object.entries(STATIC)) {
    const body = readFileSync(ASSETS + file);
    app.get(route, { config: { open: true } }, async (_request, reply) => reply.headers(security).type(type).send(body));
  }

  app.post('/web/issue', { schema: { body: issueBodySchema } }, async (request) => {
    const { raw, name } = request.body as { raw: string; name?: string };
    const issue = readSingleIssue(raw.replace(/^\uFEFF/, ''), 'auto', name ?? 'the dropped file');
    return { text: issue.text, format: issue.format, ...(issue.warning ? { warning: issue.warning } : {}) };
  });

  const gits = new Map<string, Promise<GitRepo>>();
  const gitOf = (repo: RepositoryConfig) => {
    let g = gits.get(repo.name);
    if (!g) {
      gits.set(repo.name, (g = GitRepo.open(repo.path)));
      g.catch(() => gits.delete(repo.name));
    }
    return g;
  };
  const threads = new PreviewThreads();
  app.addHook('onClose', async () => {
    await Promise.all([...gits.values()].map(async (g) => (await g.catch(() => undefined))?.close()));
    await threads.close();
  });

  app.post('/web/preview', { schema: { body: previewBodySchema } }, async (request, reply) => {
    const body = request.body as { repository: string; commit: string; items: PreviewItem[] };
    const repo = options.repositories.get(body.repository);
    if (!repo) throw new ServiceError(`no repository named ${JSON.stringify(body.repository)} is configured`, 404);
    const git = await gitOf(repo);
    const commit = await git.resolveCommit(body.commit, { rules: REMOTE_REVISIONS });
    // read and parsed on a thread of its own, ended at the deadline or when the caller leaves
    const gone = new AbortController();
    reply.raw.on('close', () => { if (!reply.raw.writableFinished) gone.abort(); });
    const job = () => threads.run({ repositoryPath: repo.path, commit, items: body.items }, options.timeoutMs ?? 30_000, gone.signal);
    return { previews: await (options.admission ? options.admission.run(job) : job()) };
  });
}
