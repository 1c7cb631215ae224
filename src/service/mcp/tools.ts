/**
 * The MCP tools of issueloc, for coding agents: `localize` (an issue → the files, modules and
 * functions to change, with line ranges and the reasons), `explain_item` (one item of such an
 * answer → its evidence and a preview of its lines) and `list_repositories`. They run on a
 * backend of `issueloc serve` (backend.ts: in-process on a pool, or worker threads) and answer
 * from its JSON (the CLI's `--json`, whose items carry their lines). One {@link McpTools} holds what
 * calls share (the backend, the files read for previews);
 * {@link McpTools.server} makes an MCP server with the tools registered, for any transport
 * (stdio: src/cli/mcp.ts; streamable HTTP: http-route.ts).
 *
 * Every answer is sized for an agent's context (top 10 per level by default, at most
 * {@link MAX_TOP}); every call is bounded (issue text cap, per-call timeout); every failure is a
 * tool error (`isError`) with one line, never a crash of the server. A call that finds the index
 * of its commit being built waits for it within the timeout, sending MCP progress notifications
 * (files indexed of all, time left) when the call carries a `progressToken`; past the timeout it
 * is told how far the build is and when to retry.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { IssuelocError } from '../../errors.js';
import { splitItemId } from '../../corpus/names.js';
import { LEVELS, levelsOf, NO_WORD_IN_CODE, plural, type Level, type LevelChoice } from '../../pipeline/result-json.js';
import type { RankedItem } from '../../retrieve/rollup.js';
import { EMPTY_ISSUE_MESSAGE, hasLetterOrDigit } from '../../text/parsed-issue.js';
import { packageVersion } from '../../version.js';
import type { ServiceBackend } from '../backend.js';
import { describeBuild } from '../build-progress.js';
import { LEVEL_CHOICES, type ServiceConfig } from '../config.js';
import { ServiceError } from '../errors.js';
import { withinMs } from '../localizer-pool.js';
import { ItemSpans } from './item-spans.js';

/** What the tools run on: the configuration (names, defaults, limits) and a backend of `issueloc serve`. */
export interface McpSource {
  config: ServiceConfig;
  backend: Pick<ServiceBackend, 'localize' | 'repos' | 'builds'>;
}

/** Where a call's progress notifications go: its `progressToken` and the request's notification channel. */
interface ProgressSink {
  token: string | number;
  send: (notification: ServerNotification) => Promise<void>;
}

/** The progress sink of a tool call, when its client asked for progress. */
function progressSink(extra: RequestHandlerExtra<ServerRequest, ServerNotification>): ProgressSink | undefined {
  const token = extra._meta?.progressToken;
  return token === undefined ? undefined : { token, send: (n) => extra.sendNotification(n) };
}

/** How often a call waiting for an index build looks at its progress (ms). */
const PROGRESS_EVERY_MS = 1000;
/** Of the call's time, what is kept for answering after the wait for an index build (ms). */
const ANSWER_MARGIN_MS = 1000;

/** The backend's JSON answer (pipeline/result-json.ts), as far as the tools read it. */
interface LocalizeAnswer extends Partial<Record<'files' | 'modules' | 'functions', RankedItem[]>> {
  commit: string;
  level: LevelChoice;
  stages: string[];
  /** Distinct issue words found in the indexed code (0: nothing could match). */
  matchedQueryTerms?: number;
}

/** Items per level a `localize` call may ask for at most. */
export const MAX_TOP = 50;
/** Items per level when a call names no `top` and the repository's default is larger. */
export const DEFAULT_MCP_TOP = 10;
/** Characters of one evidence string (a stack frame's line, a path) in an answer at most. */
const EVIDENCE_CHARS = 200;
/** Characters of one evidence string in the text of `detail: "full"` at most. */
const FULL_EVIDENCE_CHARS = 100;
/** How much of an answer a `localize` call's text content holds (its structuredContent holds everything). */
const DETAILS = ['compact', 'full'] as const;
/** Matched terms of one item in a compact line at most. */
const COMPACT_TERMS = 3;

/** Options of {@link McpTools}. */
export interface McpToolsOptions {
  /** Milliseconds one call may take, waiting for an index build included (default: the config's `limits.timeoutMs`). */
  timeoutMs?: number;
  /** Takes server paths out of tool errors (errors.ts `serverPathRedactor`; default: none). */
  redact?: (message: string) => string;
  /** Where unexpected errors are logged, one line each (never stdout: it carries the protocol). */
  onError?: (message: string) => void;
}

/** One ranked item as the tools answer it. */
export interface McpItem {
  rank: number;
  id: string;
  score: number;
  /** Lines (1-based, inclusive) of a function, a module (its functions'), a file (its best function's); absent when unknown. */
  startLine?: number;
  endLine?: number;
  matchedTerms: string[];
  signals: string[];
  evidence?: string[];
}

const itemShape = z.object({
  rank: z.number().int(), id: z.string(), score: z.number(),
  startLine: z.number().int().optional(), endLine: z.number().int().optional(),
  matchedTerms: z.array(z.string()), signals: z.array(z.string()), evidence: z.array(z.string()).optional(),
});

/** The tools' shared state; see the file comment. {@link close} it when done (the pool is the caller's). */
export class McpTools {
  private readonly spans = new Map<string, ItemSpans>();
  private readonly timeoutMs: number;
  private readonly onError: (message: string) => void;
  private readonly redact?: (message: string) => string;

  constructor(readonly source: McpSource, options: McpToolsOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? source.config.limits.timeoutMs;
    this.onError = options.onError ?? (() => {});
    this.redact = options.redact;
  }

  /** A new MCP server with the three tools registered (one per connection: a server holds one transport). */
  server(): McpServer {
    const server = new McpServer({ name: 'issueloc', version: packageVersion() }, {
      instructions: 'issueloc ranks the files, modules and functions of a git repository that an issue needs changed. ' +
        'Call localize with the issue text (title on the first line), then read the top functions at their line ranges; ' +
        'explain_item shows why one item ranks and a preview of its lines.',
    });
    const names = [...this.source.config.repositories.keys()];
    const maxIssueBytes = this.source.config.limits.maxIssueBytes;
    const repository = z.string().max(64).optional()
      .describe(names.length === 1 ? `configured repository name (default ${names[0]})` : `configured repository name, one of: ${names.join(', ')}`);
    const issue = z.string().min(1, { error: EMPTY_ISSUE_MESSAGE, abort: true }).max(maxIssueBytes, { error: `over ${maxIssueBytes} bytes (limits.maxIssueBytes)` })
      .refine(hasLetterOrDigit, { error: EMPTY_ISSUE_MESSAGE })
      .describe(`the issue text: title on the first line, then the body (at most ${maxIssueBytes} bytes)`);
    const rev = z.string().min(1).max(256).optional().describe('base commit to search: any git revision (default: the repository\'s configured one)');
    const model = z.string().max(64).optional().describe('ranking: "none" (lexical), "default" (the built-in learned model) or a configured model name');

    server.registerTool('localize', {
      title: 'Localize an issue',
      description: 'Rank the files, modules and functions of a repository that an issue most likely needs changed, best first, ' +
        'with line ranges and the reasons (issue terms matched, signals such as a stack frame or a path named in the issue).',
      // strict: an unknown argument is a tool error, as an unknown field is a 400 over HTTP
      inputSchema: z.object({
        issue, repository, rev,
        level: z.enum(LEVEL_CHOICES as [LevelChoice, ...LevelChoice[]]).optional().describe('which rankings to answer (default: the repository\'s, usually all)'),
        top: z.number().int().min(1).max(MAX_TOP).optional().describe(`items per level (default ${DEFAULT_MCP_TOP}, at most ${MAX_TOP})`),
        model,
        detail: z.enum(DETAILS).optional().describe('the text content: "compact" (default: one line per item: path:lines, score, up to 3 matched terms) ' +
          'or "full" (also every matched term, the signals and their evidence); structuredContent always holds everything'),
      }).strict(),
      outputSchema: {
        repository: z.string(), commit: z.string(), level: z.string(), stages: z.array(z.string()),
        files: z.array(itemShape).optional(), modules: z.array(itemShape).optional(), functions: z.array(itemShape).optional(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    }, (args, extra) => this.guarded(() => this.localize(args, progressSink(extra))));

    server.registerTool('explain_item', {
      title: 'Explain one ranked item',
      description: 'Why one item of a localize answer ranks where it does for the issue: its rank at each level, the issue terms it matches ' +
        '(with the lines they occur on), the signals that raised it, and a preview of its lines. Give the same issue text as to localize.',
      inputSchema: z.object({
        item: z.string().min(1).max(2000).describe('an item id from a localize answer: path, path:Module or path:Qualified.name'),
        issue, repository, rev, model,
      }).strict(),
      outputSchema: {
        repository: z.string(), commit: z.string(), item: z.string(),
        ranks: z.record(z.string(), z.number().int()), score: z.number(),
        startLine: z.number().int().optional(), endLine: z.number().int().optional(),
        matchedTerms: z.array(z.string()), termLines: z.record(z.string(), z.array(z.number().int())),
        signals: z.array(z.string()), evidence: z.array(z.string()),
        preview: z.array(z.string()), previewCut: z.boolean(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    }, (args, extra) => this.guarded(() => this.explain(args, progressSink(extra))));

    server.registerTool('list_repositories', {
      title: 'List repositories',
      description: 'The repositories this server can localize issues in, by name, with their default revision, commit and settings.',
      inputSchema: z.object({}).strict(),
      outputSchema: {
        repositories: z.array(z.object({
          name: z.string(), rev: z.string(), commit: z.string().optional(),
          level: z.string(), top: z.number().int(), model: z.string(), warm: z.boolean(),
        })),
        models: z.array(z.string()),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    }, () => this.guarded(() => this.listRepositories()));
    oneLineToolErrors(server);
    return server;
  }

  /** Stops the git processes of line ranges. */
  async close(): Promise<void> {
    const spans = [...this.spans.values()];
    this.spans.clear();
    await Promise.all(spans.map((s) => s.close()));
  }

  private async localize(args: { issue: string; repository?: string; rev?: string; level?: LevelChoice; top?: number; model?: string; detail?: typeof DETAILS[number] }, progress?: ProgressSink): Promise<CallToolResult> {
    const name = this.repositoryName(args.repository);
    const defaultTop = this.source.config.repositories.get(name)?.defaults.top ?? DEFAULT_MCP_TOP;
    const top = args.top ?? Math.min(defaultTop, DEFAULT_MCP_TOP);
    const result = await this.rank(name, args.issue, args.rev, { level: args.level, top, model: args.model }, progress);
    const full = args.detail === 'full';
    const out: Record<string, unknown> = { repository: name, commit: result.commit, level: result.level, stages: result.stages };
    const text = [full
      ? `${name} @ ${result.commit.slice(0, 12)} (${result.stages.join(' → ')}): rank. path:lines name  score  [matched issue terms]  signals: signal (its evidence); lines are 1-based, inclusive`
      : `${name} @ ${result.commit.slice(0, 12)}: rank. path:lines name  score  [matched issue terms]; all in structuredContent`];
    for (const level of levelsOf(result.level)) {
      const items = itemsOf(result, level).map((it, i) => mcpItem(it, i + 1));
      out[plural(level)] = items;
      text.push(`${plural(level)}:`, ...(items.length > 0 ? items.map((it) => (full ? itemLine(it, level) : compactLine(it, level))) : [
        result.matchedQueryTerms === 0 ? `  (none: ${NO_WORD_IN_CODE})` : '  (none)',
      ]));
    }
    return { content: [{ type: 'text', text: text.join('\n') }], structuredContent: out };
  }

  private async explain(args: { item: string; issue: string; repository?: string; rev?: string; model?: string }, progress?: ProgressSink): Promise<CallToolResult> {
    const name = this.repositoryName(args.repository);
    const result = await this.rank(name, args.issue, args.rev, { level: 'all', top: MAX_TOP, model: args.model }, progress);
    const ranks: Record<string, number> = {};
    let found: RankedItem | undefined;
    for (const level of LEVELS) {
      const i = itemsOf(result, level).findIndex((it) => it.id === args.item);
      if (i < 0) continue;
      ranks[level] = i + 1;
      found ??= itemsOf(result, level)[i];
    }
    if (!found) throw new IssuelocError(`item '${args.item.slice(0, 200)}' is not among the top ${MAX_TOP} files, modules or functions of this issue in ${name} at ${result.commit.slice(0, 12)}`);
    const preview = await this.spansOf(name).previewOf(result.commit, args.item, undefined, ranks.file !== undefined);
    const terms = found.matchedTerms ?? [];
    const termLines: Record<string, number[]> = {};
    for (const t of terms) {
      const lines = (preview?.lines ?? []).filter((l) => l.slice(l.indexOf(':') + 1).toLowerCase().includes(t.toLowerCase())).map((l) => Number(l.slice(0, l.indexOf(':'))));
      termLines[t] = lines.slice(0, 8);
    }
    const evidence = (found.evidence ?? []).map((e) => shorten(e, EVIDENCE_CHARS));
    const out = {
      repository: name, commit: result.commit, item: args.item, ranks, score: round(found.score),
      ...(preview && !ranks.file ? { startLine: preview.range.start, endLine: preview.range.end } : {}),
      matchedTerms: terms, termLines, signals: found.signals ?? [], evidence,
      preview: preview?.lines ?? [], previewCut: preview?.cut ?? false,
    };
    const text = [
      `${args.item} in ${name} @ ${result.commit.slice(0, 12)}: rank ${Object.entries(ranks).map(([l, r]) => `${r} of the ${l}s`).join(', ')}; score ${out.score}`,
      ...(out.startLine !== undefined ? [`lines ${out.startLine}-${out.endLine}`] : []),
      `matched issue terms: ${terms.length > 0 ? terms.map((t) => `${t}${termLines[t].length > 0 ? ` (lines ${termLines[t].join(', ')})` : ''}`).join('; ') : 'none'}`,
      ...(out.signals.length > 0 ? [`signals: ${out.signals.map((s, i) => (evidence[i] ? `${s} (${evidence[i]})` : s)).join('; ')}`] : []),
      ...(preview ? [`preview${preview.cut ? ` (first ${preview.lines.length} lines)` : ''}:`, ...preview.lines] : ['preview: not available (file missing, binary or too large)']),
    ];
    return { content: [{ type: 'text', text: text.join('\n') }], structuredContent: out };
  }

  private async listRepositories(): Promise<CallToolResult> {
    const repositories = (await this.source.backend.repos()).map((r) => ({
      name: r.name, rev: r.rev, ...(r.commit ? { commit: r.commit } : {}), ...r.defaults, warm: r.warm.length > 0,
    }));
    const models = ['none', 'default', ...this.source.config.models.keys()];
    const text = repositories.map((r) => `${r.name}: ${r.rev}${r.commit ? ` = ${r.commit.slice(0, 12)}` : ' (not resolved yet)'}; level ${r.level}, top ${r.top}, model ${r.model}${r.warm ? '; warm' : ''}`);
    text.push(`models: ${models.join(', ')}`);
    return { content: [{ type: 'text', text: text.join('\n') }], structuredContent: { repositories, models } };
  }

  /**
   * The backend's answer, bounded in size and time. The wait for an index build ends a little
   * before the call's time, so that a call past it is answered how far the build is (the pool's
   * 503), not only that the time is up.
   */
  private async rank(name: string, issue: string, rev: string | undefined, settings: { level?: LevelChoice; top: number; model?: string }, progress?: ProgressSink): Promise<LocalizeAnswer> {
    const max = this.source.config.limits.maxIssueBytes;
    const bytes = Buffer.byteLength(issue, 'utf8');
    if (bytes > max) throw new IssuelocError(`issue: ${bytes} bytes, over the limit of ${max} (limits.maxIssueBytes)`);
    const waitMs = Math.max(this.timeoutMs - ANSWER_MARGIN_MS, Math.ceil(this.timeoutMs / 2));
    const stopReporting = progress ? this.reportBuilds(name, progress) : () => {};
    try {
      const json = await withinMs(this.source.backend.localize({ repository: name, rev, issue, ...settings }, waitMs), this.timeoutMs,
        `no answer within ${this.timeoutMs / 1000} s (limits.timeoutSeconds): retry later`);
      return JSON.parse(json) as LocalizeAnswer;
    } finally {
      stopReporting();
    }
  }

  /**
   * Sends a progress notification whenever the build of an index of the repository advances
   * (`progress`: files indexed, `total`: files, `message`: how far and the time left), until the
   * returned function is called. Nothing is sent when no build is under way.
   */
  private reportBuilds(name: string, sink: ProgressSink): () => void {
    const builds = this.source.backend.builds?.bind(this.source.backend);
    if (!builds) return () => {};
    // progress counts on across steps (files, then commits of the history): each step's count
    // goes after the totals of the steps before it, so every notification's progress is larger
    let sent = -1;
    let offset = 0;
    let last: { step?: string; total: number } = { total: 0 };
    let stopped = false;
    const look = async () => {
      const [build] = await builds(name).catch(() => []);
      if (stopped || !build) return;
      if (build.step !== last.step && last.step !== undefined) offset += last.total;
      last = { step: build.step, total: build.total ?? 0 };
      const progress = offset + (build.done ?? 0);
      if (progress <= sent) return;
      sent = progress;
      await sink.send({
        method: 'notifications/progress',
        params: { progressToken: sink.token, progress, ...(build.total ? { total: offset + build.total } : {}), message: `indexing ${name} at ${build.commit.slice(0, 12)}: ${describeBuild(build)}` },
      }).catch(() => undefined);
    };
    void look();
    const timer = setInterval(() => void look(), PROGRESS_EVERY_MS);
    timer.unref();
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }

  /**
   * The name a call means: the one given (the backend refuses a name not configured), or the only one configured.
   * @throws IssuelocError when none is given and several are configured.
   */
  private repositoryName(given: string | undefined): string {
    const names = [...this.source.config.repositories.keys()];
    if (given !== undefined) return given;
    if (names.length === 1) return names[0];
    throw new IssuelocError(`repository: name one of ${names.join(', ')}`);
  }

  private spansOf(name: string): ItemSpans {
    let s = this.spans.get(name);
    if (!s) {
      s = new ItemSpans(this.source.config.repositories.get(name)!.path);
      this.spans.set(name, s);
    }
    return s;
  }

  /** The tool's result, or a tool error of one line (unexpected errors also logged). */
  private async guarded(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
    try {
      return await work();
    } catch (e) {
      const expected = e instanceof IssuelocError;
      if (!expected) this.onError(`internal error in an MCP tool: ${oneLine(e)}${process.env.ISSUELOC_DEBUG && e instanceof Error ? `\n${e.stack}` : ''}`);
      const retry = e instanceof ServiceError && e.retryAfterSeconds ? ` (retry in ${e.retryAfterSeconds} s)` : '';
      const text = `${expected ? '' : 'internal error: '}${oneLine(e)}${retry}`;
      return { isError: true, content: [{ type: 'text', text: this.redact ? this.redact(text) : text }] };
    }
  }
}

/**
 * Makes the SDK's own tool errors (arguments that fail their schema, one line per problem) one
 * line: `localize: invalid arguments: Too big: expected number to be <=50 at top; …`. The SDK
 * builds them in McpServer's `createToolError` (private in its types, a plain method in 1.x);
 * test/service/mcp-stdio.test.ts fails if that stops working.
 */
function oneLineToolErrors(server: McpServer): void {
  const s = server as unknown as { createToolError?: (message: string) => CallToolResult };
  const original = s.createToolError?.bind(server);
  if (!original) return;
  s.createToolError = (message) => original(message
    .replace(/^MCP error -32602: Input validation error: Invalid arguments for tool ([\w-]+): /, '$1: invalid arguments: ')
    .split('\n').join('; '));
}

/** The items of one level of an answer (none when the level was not asked for). */
function itemsOf(answer: LocalizeAnswer, level: Level): RankedItem[] {
  return answer[plural(level)] ?? [];
}

/** An item of the backend's answer (its lines from the pipeline: src/retrieve/item-lines.ts) as the tools answer it. */
function mcpItem(it: RankedItem, rank: number): McpItem {
  return {
    rank, id: it.id, score: round(it.score),
    ...(it.startLine !== undefined && it.endLine !== undefined ? { startLine: it.startLine, endLine: it.endLine } : {}),
    matchedTerms: it.matchedTerms ?? [], signals: it.signals ?? [],
    ...(it.evidence?.length ? { evidence: it.evidence.map((e) => shorten(e, EVIDENCE_CHARS)) } : {}),
  };
}

/**
 * The full text's line: the compact line ({@link compactLine}) with every matched term, then the
 * signals and their evidence: `  1. path:10-24 Qualified.name  0.83  [term, …]  signals: frameFunction (its evidence)`.
 */
function itemLine(it: McpItem, level: Level): string {
  const signals = it.signals.length > 0 ? `  signals: ${it.signals.map((s, i) => (it.evidence?.[i] ? `${s} (${shorten(it.evidence[i], FULL_EVIDENCE_CHARS)})` : s)).join(', ')}` : '';
  return `${compactLine(it, level, Infinity)}${signals}`;
}

/**
 * `  1. path:10-24 Qualified.name  0.83  [term, term, term]`: where to read, how sure, why (at most
 * `terms` terms, {@link COMPACT_TERMS} by default). A file's id is its path; a module's or
 * function's is split by {@link splitItemId}.
 */
function compactLine(it: McpItem, level: Level, terms = COMPACT_TERMS): string {
  const { path, qualifiedName: name } = level === 'file' ? { path: it.id, qualifiedName: '' } : splitItemId(it.id);
  const lines = it.startLine !== undefined ? `:${it.startLine}-${it.endLine}` : '';
  const matched = it.matchedTerms.length > 0 ? `  [${it.matchedTerms.slice(0, terms).join(', ')}]` : '';
  return `  ${it.rank}. ${path}${lines}${name ? ` ${name}` : ''}  ${it.score}${matched}`;
}

/**
 * `s` in at most `n` characters: a longer one first loses the middle of its longest path (before
 * the file name, kept whole with what follows it: a stack frame's line number and function), then
 * its end.
 */
export function shorten(s: string, n: number): string {
  if (s.length <= n) return s;
  let path: RegExpExecArray | undefined;
  for (const m of s.matchAll(/[^\s"'()<>,]*[/\\][^\s"'()<>,]*/g)) if (!path || m[0].length > path[0].length) path = m;
  if (path) {
    const p = path[0];
    const name = p.length - Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')); // the file name and its separator
    const drop = Math.min(s.length - n + 1, p.length - name - 1); // the path's first character stays
    if (drop > 1) {
      const at = path.index + p.length - name - drop;
      s = `${s.slice(0, at)}…${s.slice(at + drop)}`;
    }
  }
  return s.length <= n ? s : cut(s, n - 1);
}

const round = (x: number) => Number(x.toPrecision(4));
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The first line of an error's message, at most 300 characters. */
export function oneLine(e: unknown): string {
  return cut((e instanceof Error ? e.message : String(e)).split('\n')[0], 300);
}
