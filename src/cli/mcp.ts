import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { GitRepo } from '../repo/git.js';
import { InProcessBackend } from '../service/backend.js';
import { CONFIG_FILE_NAMES, loadServiceConfig, repositoryNameOf, type ServiceConfig, type ServiceLimits } from '../service/config.js';
import { LocalizerPool, type PoolOptions } from '../service/localizer-pool.js';
import { wholeOption } from './options.js';
import { onStopSignal } from './stop-signals.js';
import { requireParts } from '../util/optional-packages.js';

const warn = (m: string) => process.stderr.write(`issueloc: warning: ${m}\n`);

/** Added to the per-call timeout for the answers still due when stdin ends. */
const DRAIN_MARGIN_MS = 5000;

/**
 * `issueloc mcp`: an MCP server on stdin/stdout for coding agents (tools localize, explain_item,
 * list_repositories). Repositories as for `issueloc serve` (`--config`, `--repo PATH` or `NAME=PATH`,
 * `issueloc.config.json` here); with none of them, the repository of the current folder. stdout
 * carries only protocol messages; warnings go to stderr. Every line read gets an answer (a bad one a
 * JSON-RPC error: src/service/mcp/stdio-transport.ts). Leaves when stdin closes, once the calls
 * received are answered (or on SIGTERM).
 */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve the MCP tools localize, explain_item and list_repositories on stdio, for coding agents')
    .option('--config <file>', `repositories and limits (default: ${CONFIG_FILE_NAMES.join(' or ')} here, if there)`)
    .option('--repo <path|name=path>', 'a repository: a path (named after its folder) or NAME=PATH (repeatable); without --repo or a config: the current folder\'s repository', (v, all: string[]) => [...all, v], [])
    .option('--cache-dir <path>', 'cache folder of every repository (default: each its own, see issueloc localize)')
    .option('--timeout <seconds>', 'seconds one tool call may take, an index build included (default 30)', wholeOption('--timeout', 1, 3600))
    .option('--max-issue-bytes <n>', 'refuse an issue text longer than this many bytes (1 MiB by default)', wholeOption('--max-issue-bytes', 1, 1 << 30))
    .action(async (o: { config?: string; repo: string[]; cacheDir?: string; timeout?: number; maxIssueBytes?: number }) => {
      requireParts('mcp', 'mcp');
      const limits: Partial<ServiceLimits> = {
        ...(o.timeout !== undefined ? { timeoutMs: o.timeout * 1000 } : {}),
        ...(o.maxIssueBytes !== undefined ? { maxIssueBytes: o.maxIssueBytes } : {}),
      };
      const repo = o.config === undefined && o.repo.length === 0 && !CONFIG_FILE_NAMES.some((n) => existsSync(n)) ? [await currentRepository()] : o.repo;
      const config = loadServiceConfig({ config: o.config, repo, cacheDir: o.cacheDir, limits });
      await serveMcpStdio(config);
    });
}

/**
 * Serves the MCP tools on stdin/stdout until stdin closes (the calls received answered) or a stop
 * signal; indexes the repositories' default commits at start. `poolOptions` for tests (`open`: a
 * slow build).
 */
export async function serveMcpStdio(config: ServiceConfig, poolOptions: Omit<PoolOptions, 'onWarning'> = {}): Promise<void> {
  // loaded here, not at start: the MCP SDK costs every other command a second of start-up
  const [{ LineTransport }, { McpTools, oneLine }] = await Promise.all([
    import('../service/mcp/stdio-transport.js'), import('../service/mcp/tools.js'),
  ]);
  const pool = new LocalizerPool(config, { ...poolOptions, onWarning: warn });
  const tools = new McpTools({ config, backend: new InProcessBackend(pool) }, { onError: (m) => process.stderr.write(`issueloc: ${m}\n`) });
  const server = tools.server();
  // when stdin ends, the calls under way are answered first (each is bounded by the timeout)
  const transport = new LineTransport(process.stdin, process.stdout, { drainMs: config.limits.timeoutMs + DRAIN_MARGIN_MS });
  let removeSignals = () => {};
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    removeSignals = onStopSignal(() => resolve());
  });
  await server.connect(transport);
  // the default commits are indexed now, so the agent's first call finds them warm (a call
  // during a build waits for it within the timeout, with progress notifications, then is told
  // how far the build is and when to retry)
  void (async () => {
    for (const name of config.repositories.keys()) {
      const t0 = Date.now();
      try {
        const info = await pool.prepare(name);
        process.stderr.write(`issueloc: ${name} at ${info.commit.slice(0, 12)} ready: ${info.files} files indexed (${Math.round((Date.now() - t0) / 1000)} s)\n`);
      } catch (e) {
        warn(`${name}: ${oneLine(e)}`);
      }
    }
  })();
  await closed;
  await server.close().catch(() => undefined);
  await tools.close();
  await pool.close();
  removeSignals();
}

/** `--repo NAME=PATH` of the repository holding the current folder, named after its top folder. */
async function currentRepository(): Promise<string> {
  const git = await GitRepo.open('.');
  try {
    const top = git.workTree ?? git.gitDir;
    return `${repositoryNameOf(top)}=${top}`;
  } finally {
    await git.close();
  }
}
