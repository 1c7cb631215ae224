import { Command, Option } from 'commander';
import { IssuelocError } from '../errors.js';
import { parseSize } from '../index/cache-usage.js';
import { GitRepo } from '../repo/git.js';
import { InProcessBackend, type ServiceBackend } from '../service/backend.js';
import { loadServiceConfig, type ServiceConfig, type ServiceLimits } from '../service/config.js';
import { serverPathRedactor } from '../service/errors.js';
import { LocalizerPool } from '../service/localizer-pool.js';
import { watchDefaultBranches, WATCH_INTERVAL_BOUNDS, type Watch } from '../service/watch.js';
import { wholeOption } from './options.js';
import { onStopSignal } from './stop-signals.js';
import { requireParts } from '../util/optional-packages.js';

/** `issueloc serve`: the warm HTTP service (src/service/). */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve localize requests over HTTP with the indexes kept warm (POST /v1/localize, GET /v1/repos, /healthz, /metrics, /openapi.json)')
    .option('--config <file>', 'configuration file, JSON or YAML (default: issueloc.config.json, .yaml or .yml here, when there)')
    .option('--repo <path|name=path>', 'a repository requests may name: a path (named after its folder) or NAME=PATH (repeatable; over the file\'s entry of that name)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--cache-dir <path>', 'cache folder of every repository (default: each repository\'s own, ISSUELOC_CACHE_DIR)')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0: any free one; the address is printed)', wholeOption('--port', 0, 65535), 8787)
    .option('--allow-host <name>', 'without a token, a Host name requests may be sent to besides 127.0.0.1, localhost, [::1] and --host (repeatable; others get 403: DNS rebinding)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--token-env <name>', 'environment variable holding a bearer token every request must bring but /healthz, /openapi.json and the web page\'s files (/, /web/app.js, /web/style.css)')
    .option('--workers <n>', 'worker threads running the queries and index builds (0: on the HTTP thread, which then stops answering, /healthz included, while it builds an index)', wholeOption('--workers', 0, 64), 1)
    .option('--replicas <n>', 'with --workers: threads per repository (default: all)', wholeOption('--replicas', 1, 64))
    .addOption(new Option('--watch [seconds]', `re-index each repository's default revision when it moves, polling every so many seconds (${WATCH_INTERVAL_BOUNDS.min}-${WATCH_INTERVAL_BOUNDS.max})`).argParser(wholeOption('--watch', WATCH_INTERVAL_BOUNDS.min, WATCH_INTERVAL_BOUNDS.max)).preset(30))
    .option('--no-warm', 'do not index the default revisions at start (the first request does)')
    .option('--max-body-bytes <n>', 'largest request body (default 1 MiB)', wholeOption('--max-body-bytes', 1024, 1 << 30))
    .option('--timeout <seconds>', 'longest time a request may take, index build included (default 30)', wholeOption('--timeout', 1, 3600))
    .option('--concurrency <n>', 'pieces of work in flight at most (localize requests, MCP tool calls: each call of a batch, previews), more get 429 (default 32)', wholeOption('--concurrency', 1, 10_000))
    .option('--memory-budget <size>', 'warm indexes kept in memory per pool, estimated, e.g. 1G (default 1G)')
    .action(async (o) => {
      requireParts('serve', 'serve');
      const limits: Partial<ServiceLimits> = {};
      if (o.maxBodyBytes !== undefined) limits.maxBodyBytes = o.maxBodyBytes;
      if (o.timeout !== undefined) limits.timeoutMs = o.timeout * 1000;
      if (o.concurrency !== undefined) limits.concurrency = o.concurrency;
      if (o.memoryBudget !== undefined) limits.memoryBudgetBytes = parseSize(o.memoryBudget, '--memory-budget');
      const token = o.tokenEnv !== undefined ? tokenFrom(o.tokenEnv) : undefined;
      if (o.replicas !== undefined && o.workers === 0) throw new IssuelocError('--replicas needs --workers');
      const config = loadServiceConfig({ config: o.config, repo: o.repo, cacheDir: o.cacheDir, limits });
      await checkRepositories(config);
      const warn = (m: string) => process.stderr.write(`issueloc: warning: ${m}\n`);
      if (token === undefined && !isLoopback(o.host)) warn(`listening on ${o.host} without a token: anyone who reaches it may query (--token-env)`);
      await serve(config, { host: o.host, port: o.port, token, allowedHosts: [o.host, ...(o.allowHost ?? [])], workers: o.workers, replicas: o.replicas, watchSeconds: o.watch, warm: o.warm, warn });
    });
}

interface ServeOptions {
  host: string;
  port: number;
  token?: string;
  allowedHosts: string[];
  workers: number;
  replicas?: number;
  watchSeconds?: number;
  warm: boolean;
  warn: (message: string) => void;
}

/** Runs the service until SIGTERM or SIGINT, then drains the requests in flight and returns. */
async function serve(config: ServiceConfig, o: ServeOptions): Promise<void> {
  // loaded here, not at start: fastify and the MCP SDK cost every other command a second of start-up
  const [{ buildServer }, { registerWebPage }, { registerMcpRoute }, { WorkerBackend }, { withAnswerCache }] = await Promise.all([
    import('../service/server.js'), import('../service/web/page.js'), import('../service/mcp/http-route.js'), import('../service/worker-backend.js'),
    import('../service/answer-cache.js'),
  ]);
  const backend: ServiceBackend = withAnswerCache(o.workers > 0
    ? new WorkerBackend(config, { workers: o.workers, replicas: o.replicas, onWarning: o.warn })
    : new InProcessBackend(new LocalizerPool(config, { onWarning: o.warn })), config);
  const redact = serverPathRedactor(config.repositories.values(), config.cacheDir);
  const service = buildServer({ backend, limits: config.limits, token: o.token, allowedHosts: o.allowedHosts, redact });
  registerWebPage(service.app, { repositories: config.repositories, timeoutMs: config.limits.timeoutMs, admission: service.admission });
  registerMcpRoute(service.app, { config, backend: service.backend }, { redact, admission: service.admission });
  let address: string;
  try {
    address = await service.app.listen({ host: o.host, port: o.port });
  } catch (e) {
    await backend.close();
    const err = e as NodeJS.ErrnoException;
    throw new IssuelocError(`cannot listen on ${o.host}:${o.port}: ${err.code ?? err.message}`);
  }
  process.stdout.write(`issueloc: serving ${[...config.repositories.keys()].join(', ')} on ${address}\n`);
  let removeSignals = () => {};
  const stopped = new Promise<NodeJS.Signals>((resolve) => { removeSignals = onStopSignal(resolve); });
  if (o.warm) {
    backend.warmDefaults().then(
      () => process.stderr.write('issueloc: default revisions indexed\n'),
      (e: Error) => o.warn(`indexing the default revisions: ${e.message.split('\n')[0]}`),
    );
  }
  let watch: Watch | undefined;
  if (o.watchSeconds !== undefined) {
    watch = watchDefaultBranches(backend, [...config.repositories.keys()], o.watchSeconds * 1000,
      (name, commit) => process.stderr.write(`issueloc: ${name} moved to ${commit.slice(0, 12)}: indexed\n`), o.warn);
  }
  const signal = await stopped;
  process.stderr.write(`issueloc: ${signal}: finishing ${service.inFlight()} requests in flight\n`);
  // in-flight requests are answered within the request timeout (the drain waits that and a grace
  // second for their work); past another second connections are cut
  const cut = setTimeout(() => service.app.server.closeAllConnections(), config.limits.timeoutMs + 2000);
  try {
    await watch?.stop();
    await service.drain();
  } finally {
    clearTimeout(cut);
    await backend.close();
    removeSignals();
  }
}

/** The bearer token in the environment variable `name`. @throws IssuelocError when unset or empty. */
function tokenFrom(name: string): string {
  const token = process.env[name];
  if (!token) throw new IssuelocError(`--token-env ${name}: the variable is unset or empty`);
  return token;
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');

/** Each repository opens and its default revision names a commit. @throws IssuelocError naming the repository. */
async function checkRepositories(config: ServiceConfig): Promise<void> {
  for (const r of config.repositories.values()) {
    let repo: GitRepo | undefined;
    try {
      repo = await GitRepo.open(r.path);
      await repo.resolveCommit(r.rev);
    } catch (e) {
      if (e instanceof IssuelocError) throw new IssuelocError(`repository ${r.name} (${config.source}): ${e.message}`);
      throw e;
    } finally {
      await repo?.close();
    }
  }
}
