/**
 * Protocol and reader inputs (issue 31, families F8, F9, F13–F15): hostile issue documents (a Jira
 * API v3 description nested 4,000 deep, Jira XML with an external, oversized or deeply nested
 * entity), line numbers of a file holding a lone CR (git's lines in every answer), and the MCP
 * server on stdio fed bad JSON-RPC, an over-sized message, and a stdin closed right after a call.
 * Expected: one-line errors (exit 2, HTTP 400, a JSON-RPC error answer), a server that keeps
 * serving, and never an "internal error".
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliEnv, errorLines, type RunResult } from '../cli.js';
import { shopRepo, SHOP_FILES, workTree } from '../fixtures.js';
import { BIN, CLI_NODE_ARGS, INPUT_BOUND_S, INTERNAL_ERROR, STACK_TRACE, STARTUP_SLACK_S } from '../interface.js';
import { badEnd, firstLine, wrong, type Failure, type Probe, type ProbeContext } from '../probe.js';

/** Exit 2 with one error line naming `source`, and none of `secret` in any output. */
function oneLineError(r: RunResult, source: string, secret?: string): Failure | undefined {
  const bad = badEnd(r);
  if (bad) return bad;
  if (secret && (r.stdout + r.stderr).includes(secret)) return wrong(r, 'the content of an external entity reached the output');
  if (r.code !== 2) return wrong(r, `exit ${r.code} instead of 2 (a one-line error naming ${source}): ${firstLine(r.stderr)}`);
  const lines = errorLines(r.stderr);
  if (lines.length !== 1) return wrong(r, `${lines.length} error lines instead of one: ${lines.slice(0, 3).join(' | ')}`);
  if (!lines[0].startsWith('issueloc: ') || !lines[0].includes(source)) return wrong(r, `the error does not name ${source}: ${lines[0]}`);
  return undefined;
}

/** A Jira REST issue whose API v3 description nests `depth` paragraphs (built as text: JSON.stringify itself overflows). */
function deepAdfIssue(depth: number): string {
  const desc = `{"type":"doc","version":1,"content":[${'{"type":"paragraph","content":['.repeat(depth)}{"type":"text","text":"coupon discount total price"}${']}'.repeat(depth)}]}`;
  return `{"key":"SHOP-1","fields":{"summary":"Coupon discount applied twice","description":${desc}}}`;
}

/** A Jira XML export of one issue with `doctype` before it and `summary` as its title. */
const jiraXml = (doctype: string, summary: string, description = 'the coupon discount is applied twice') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n${doctype}\n<rss version="0.92"><channel><title>Jira</title><item>` +
  `<key>SHOP-1</key><summary>${summary}</summary><type>Bug</type><status>Closed</status><resolution>Fixed</resolution>` +
  `<created>Mon, 1 Jan 2024 10:00:00 +0000</created><description>${description}</description></item></channel></rss>\n`;

/** A running `issueloc serve` (port 0) and its address. */
interface Served {
  url: string;
  stderr: () => string;
  stop(): Promise<void>;
}

/** Starts `issueloc serve --port 0 --no-warm` with `args`; bounded wait for its address. */
async function serve(ctx: ProbeContext, args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [...CLI_NODE_ARGS, BIN, 'serve', '--host', '127.0.0.1', '--port', '0', '--no-warm', ...args], { env: cliEnv(ctx.home), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString('utf8'); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString('utf8'); });
  const exited = new Promise<void>((r) => child.on('close', () => r()));
  const stop = async () => {
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(t);
  };
  const t0 = Date.now();
  const limitMs = await ctx.boundMs(2 * STARTUP_SLACK_S);
  while (!/http:\/\/\S+/.test(out)) {
    if (Date.now() - t0 > limitMs || child.exitCode !== null) {
      await stop();
      throw new Error(`serve printed no address: ${err.slice(0, 300)}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { url: /http:\/\/\S+/.exec(out)![0].replace(/\/$/, ''), stderr: () => err, stop };
}

/** A JSON-RPC message an `issueloc mcp` wrote. */
type RpcMessage = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };

/** A running `issueloc mcp`, driven line by line. */
class McpChild {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: RpcMessage[] = [];
  /** stdout lines that were no JSON-RPC message. */
  readonly junk: string[] = [];
  private out = '';
  private err = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(private readonly ctx: ProbeContext, repo: string, cache: string) {
    this.child = spawn(process.execPath, [...CLI_NODE_ARGS, BIN, 'mcp', '--repo', `shop=${repo}`, '--cache-dir', cache], { env: cliEnv(ctx.home), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdin.on('error', () => { /* gone: judged by what it answered */ });
    this.child.stdout.on('data', (d: Buffer) => {
      this.out += d.toString('utf8');
      for (let nl = this.out.indexOf('\n'); nl >= 0; nl = this.out.indexOf('\n')) {
        const line = this.out.slice(0, nl);
        this.out = this.out.slice(nl + 1);
        try { this.messages.push(JSON.parse(line) as RpcMessage); } catch { this.junk.push(line.slice(0, 200)); }
      }
    });
    this.child.stderr.on('data', (d: Buffer) => { this.err += d.toString('utf8'); });
    this.exited = new Promise((r) => this.child.on('close', (code, signal) => r({ code, signal })));
  }

  get stderr(): string { return this.err; }

  /** Writes one line (a message, or anything). */
  write(line: string | Buffer): void {
    this.child.stdin.write(line);
  }

  send(m: object): void {
    this.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
  }

  /** Initializes the session (bounded: the first answer comes after the process's start-up). */
  async initialize(): Promise<void> {
    this.send({ id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'faults', version: '0' } } });
    if (!(await this.answerTo('init', await this.ctx.boundMs(10)))) throw new Error(`mcp: no answer to initialize: ${this.err.slice(0, 300)}`);
    this.send({ method: 'notifications/initialized' });
  }

  /** The answer with `id`, waiting up to `ms`. */
  async answerTo(id: unknown, ms: number): Promise<RpcMessage | undefined> {
    const t0 = Date.now();
    for (;;) {
      const m = this.messages.find((x) => x.id === id && (x.result !== undefined || x.error !== undefined));
      if (m) return m;
      if (Date.now() - t0 > ms || this.child.exitCode !== null || this.child.signalCode !== null) return undefined;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Error answers after the `skip` first messages. */
  errorsSince(skip: number): RpcMessage[] {
    return this.messages.slice(skip).filter((m) => m.error !== undefined);
  }

  /** Closes stdin and waits for the exit (bounded; killed past it). */
  async end(ms = 30_000): Promise<{ code: number | null; signal: NodeJS.Signals | null; timedOut: boolean }> {
    this.child.stdin.end();
    let timedOut = false;
    const t = setTimeout(() => { timedOut = true; this.child.kill('SIGKILL'); }, ms);
    const e = await this.exited;
    clearTimeout(t);
    return { ...e, timedOut };
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** A crash or stack trace on an MCP server's stderr. */
function crashed(mcp: McpChild): Failure | undefined {
  if (INTERNAL_ERROR.test(mcp.stderr) || STACK_TRACE.test(mcp.stderr)) return { kind: 'crash', detail: `issueloc mcp: stack trace or internal error on stderr: ${firstLine(mcp.stderr)}` };
  return undefined;
}

/** An MCP answer's error as one line, or a failure. */
function oneLineRpcError(m: RpcMessage | undefined, what: string, id: unknown): Failure | undefined {
  if (!m) return wrong(undefined, `issueloc mcp: no answer to ${what} (id ${JSON.stringify(id)})`);
  if (!m.error) return wrong(undefined, `issueloc mcp: ${what} answered without an error: ${JSON.stringify(m).slice(0, 200)}`);
  if (typeof m.error.message !== 'string' || m.error.message.includes('\n')) return wrong(undefined, `issueloc mcp: ${what}: the error is not one line: ${JSON.stringify(m.error.message).slice(0, 200)}`);
  return undefined;
}

const ANSWER_MS = (INPUT_BOUND_S + STARTUP_SLACK_S) * 1000;

/** The line of `pattern` in `path` at HEAD as git counts lines (`git grep -n`). */
function gitLine(repo: string, path: string, pattern: string): number {
  const out = execFileSync('git', ['-C', repo, 'grep', '-n', '-F', pattern, 'HEAD', '--', path], { encoding: 'utf8' });
  return Number(out.split(':')[2]);
}

/** The shop with a file whose comment holds a lone CR (a line git does not split) above its function. */
function loneCrRepo(ctx: ProbeContext): Promise<string> {
  return ctx.shared.memo('repo:lone-cr', () => workTree(join(ctx.shared.dir('lone-cr'), 'repo'), {
    ...SHOP_FILES,
    'src/shop/gift.py': [
      '# gift cards: an old editor saved this note with a lone CR\rinside one line',
      '',
      'def redeem_gift_card(cart, card):',
      '    """Redeem a gift card: the coupon discount total price of the cart is lowered."""',
      '    cart.total -= card.balance',
      '    return cart.total',
      '',
    ].join('\n'),
  }));
}

export const protocolProbes: Probe[] = [
  {
    area: 'protocol', name: 'jira-adf-deep', quick: true,
    expect: 'a Jira API v3 issue whose description nests 4,000 deep: `localize --issue-file` exits 2 with one line naming the file; `POST /web/issue` answers 400 (not 500)',
    async run(ctx) {
      const repo = await shopRepo(ctx.shared);
      const file = join(ctx.dir(), 'adf-deep.json');
      writeFileSync(file, deepAdfIssue(4000));
      const args = ['localize', '--repo', repo, '--issue-file', file, '--json', '--no-progress', '--cache-dir', join(ctx.dir(), 'c')];
      await ctx.attempt('localize --issue-file', async () => oneLineError(await ctx.cli(args, INPUT_BOUND_S), file));
      await ctx.attempt('POST /web/issue', async () => {
        const s = await serve(ctx, ['--repo', `shop=${repo}`, '--cache-dir', join(ctx.dir(), 'cs')]);
        try {
          const res = await fetch(`${s.url}/web/issue`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ raw: deepAdfIssue(4000), name: 'adf-deep.json' }), signal: AbortSignal.timeout(ANSWER_MS) });
          const body = await res.text();
          if (res.status !== 400) return wrong(undefined, `POST /web/issue: ${res.status} instead of 400: ${body.slice(0, 200)}`);
          if (INTERNAL_ERROR.test(s.stderr())) return { kind: 'crash', detail: `serve: internal error on stderr: ${firstLine(s.stderr())}` };
          return undefined;
        } finally {
          await s.stop();
        }
      });
    },
  },
  {
    area: 'protocol', name: 'jira-xml-entities', quick: true,
    expect: 'Jira XML with an external entity, an oversized entity, or tags nested 4,000 deep: `dataset build` exits 2 with one line naming the file, no "internal error"; an external entity is never read',
    async run(ctx) {
      const repo = await shopRepo(ctx.shared);
      const dir = ctx.dir();
      const secret = join(dir, 'secret.txt');
      const token = 'SECRET-7f3a9c-NEVER-READ';
      writeFileSync(secret, `${token}\n`);
      const cases: [string, string][] = [
        ['external entity', jiraXml(`<!DOCTYPE rss [ <!ENTITY xxe SYSTEM "file://${secret}"> ]>`, 'Coupon &xxe; twice')],
        ['oversized entity', jiraXml(`<!DOCTYPE rss [ <!ENTITY big "${'coupon '.repeat(40_000)}"> ]>`, 'Coupon &big; twice')],
        ['nested 4,000 deep', jiraXml('', 'Coupon applied twice', `${'<d>'.repeat(4000)}coupon${'</d>'.repeat(4000)}`)],
      ];
      for (const [label, xml] of cases) {
        const file = join(dir, `${label.replace(/\W+/g, '-')}.xml`);
        writeFileSync(file, xml);
        const out = join(dir, `${label.replace(/\W+/g, '-')}.jsonl`);
        const args = ['dataset', 'build', '--repo', repo, '--issues', file, '--key', 'SHOP', '-o', out, '--no-progress'];
        await ctx.attempt(label, async () => {
          const r = await ctx.cli(args, INPUT_BOUND_S);
          let written = '';
          try { written = readFileSync(out, 'utf8'); } catch { /* none: as expected */ }
          return written.includes(token) ? wrong(r, 'the external entity\'s file was read into the dataset') : oneLineError(r, file, token);
        });
      }
    },
  },
  {
    area: 'protocol', name: 'lone-cr-lines', quick: false,
    expect: 'a file whose comment holds a lone CR: the function\'s lines in `localize --json`, the MCP `localize` answer and `POST /web/preview` are git\'s (`git grep -n`), not one line further down',
    async run(ctx) {
      const repo = await loneCrRepo(ctx);
      const id = 'src/shop/gift.py:redeem_gift_card';
      const want = gitLine(repo, 'src/shop/gift.py', 'def redeem_gift_card');
      const issue = 'Redeem gift card lowers the coupon discount total price twice\n\nredeem_gift_card is wrong.';
      const cache = join(ctx.dir(), 'c');
      const startOf = (items: { id: string; startLine?: number }[] | undefined) => items?.find((f) => f.id === id)?.startLine;
      await ctx.attempt('localize --json', async () => {
        const r = await ctx.cli(['localize', '--repo', repo, '--issue', issue, '--json', '--level', 'function', '--no-progress', '--cache-dir', cache], 60);
        const bad = badEnd(r);
        if (bad) return bad;
        const got = startOf((JSON.parse(r.stdout) as { functions?: { id: string; startLine?: number }[] }).functions);
        return got === want ? undefined : wrong(r, `${id} starts at line ${got}, git says ${want}`);
      });
      await ctx.attempt('mcp localize', async () => {
        const mcp = new McpChild(ctx, repo, cache);
        try {
          await mcp.initialize();
          mcp.send({ id: 2, method: 'tools/call', params: { name: 'localize', arguments: { issue, level: 'function' } } });
          const m = await mcp.answerTo(2, 60_000);
          const got = startOf((m?.result?.structuredContent as { functions?: { id: string; startLine?: number }[] } | undefined)?.functions);
          return got === want ? crashed(mcp) : wrong(undefined, `issueloc mcp: ${id} starts at line ${got}, git says ${want}`);
        } finally {
          mcp.kill();
        }
      });
      await ctx.attempt('POST /web/preview', async () => {
        const s = await serve(ctx, ['--repo', `shop=${repo}`, '--cache-dir', cache]);
        try {
          const commit = execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
          const res = await fetch(`${s.url}/web/preview`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ repository: 'shop', commit, items: [{ id, lines: true }] }), signal: AbortSignal.timeout(ANSWER_MS) });
          const body = await res.json() as { previews?: { id: string; startLine?: number; lines?: string[] }[] };
          const p = body.previews?.find((x) => x.id === id);
          if (p?.startLine !== want) return wrong(undefined, `POST /web/preview: ${id} starts at line ${p?.startLine}, git says ${want}`);
          if (!p.lines?.[0]?.startsWith('def redeem_gift_card')) return wrong(undefined, `POST /web/preview: the preview starts with ${JSON.stringify(p.lines?.[0])}`);
          return undefined;
        } finally {
          await s.stop();
        }
      });
    },
  },
  {
    area: 'protocol', name: 'mcp-stdio-bad-messages', quick: true,
    expect: '`issueloc mcp` fed a non-JSON line, `"jsonrpc":"1.0"`, no `jsonrpc`, `"params": null`, bad tool calls: a one-line JSON-RPC error answer to each (its id when readable), and a next call still answered',
    async run(ctx) {
      const repo = await shopRepo(ctx.shared);
      const mcp = new McpChild(ctx, repo, join(ctx.dir(), 'c'));
      try {
        await mcp.initialize();
        await ctx.attempt('not JSON', async () => {
          const before = mcp.messages.length;
          mcp.write('this is not json\n');
          mcp.send({ id: 'after-junk', method: 'tools/list' });
          await mcp.answerTo('after-junk', ANSWER_MS);
          const errs = mcp.errorsSince(before).filter((m) => m.id === null);
          return errs.length === 1 ? oneLineRpcError(errs[0], 'a non-JSON line', null) : wrong(undefined, `issueloc mcp: ${errs.length} error answers (id null) to a non-JSON line instead of 1`);
        });
        const cases: [string, string, unknown][] = [
          ['"jsonrpc":"1.0"', '{"jsonrpc":"1.0","id":11,"method":"tools/list"}', 11],
          ['no jsonrpc', '{"id":12,"method":"tools/list"}', 12],
          ['"params": null', '{"jsonrpc":"2.0","id":13,"method":"tools/list","params":null}', 13],
          ['tools/call without a name', '{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"arguments":{}}}', 14],
          ['tools/call with params a list', '{"jsonrpc":"2.0","id":15,"method":"tools/call","params":[1,2]}', 15],
        ];
        for (const [label, line, id] of cases) {
          await ctx.attempt(label, async () => {
            mcp.write(`${line}\n`);
            return oneLineRpcError(await mcp.answerTo(id, ANSWER_MS), label, id);
          });
        }
        await ctx.attempt('bad tool arguments', async () => {
          mcp.send({ id: 16, method: 'tools/call', params: { name: 'localize', arguments: { issue: 5, top: 1000, level: 'nope' } } });
          const m = await mcp.answerTo(16, ANSWER_MS);
          if (!m) return wrong(undefined, 'issueloc mcp: no answer to bad tool arguments');
          const text = m.error?.message ?? ((m.result?.content as { text?: string }[] | undefined)?.map((c) => c.text ?? '').join('\n') ?? '');
          return text !== '' && !text.includes('\n') ? undefined : wrong(undefined, `issueloc mcp: bad tool arguments: not a one-line error: ${JSON.stringify(text).slice(0, 200)}`);
        });
        await ctx.attempt('still serving', async () => {
          mcp.send({ id: 17, method: 'tools/list' });
          const m = await mcp.answerTo(17, ANSWER_MS);
          if (!m?.result) return wrong(undefined, `issueloc mcp: tools/list after the bad messages: ${m ? JSON.stringify(m).slice(0, 200) : 'no answer'}`);
          const end = await mcp.end();
          if (end.timedOut || end.code !== 0) return wrong(undefined, `issueloc mcp: stdin closed: ${end.timedOut ? 'no exit' : `exit ${end.code ?? end.signal}`}`);
          return crashed(mcp) ?? (mcp.junk.length > 0 ? wrong(undefined, `issueloc mcp: stdout lines that are no JSON: ${mcp.junk[0]}`) : undefined);
        });
      } finally {
        mcp.kill();
      }
    },
  },
  {
    area: 'protocol', name: 'mcp-stdin-over-buffer', quick: true,
    expect: '`issueloc mcp` given an 11 MiB message: a JSON-RPC error answer to it (with its id), the next call answered, exit 0 when stdin closes',
    async run(ctx) {
      const repo = await shopRepo(ctx.shared);
      const mcp = new McpChild(ctx, repo, join(ctx.dir(), 'c'));
      try {
        await mcp.initialize();
        await ctx.attempt('11 MiB message', async () => {
          const big = `{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"localize","arguments":{"issue":"${'coupon '.repeat((11 << 20) / 7)}"}}}\n`;
          mcp.write(big);
          mcp.send({ id: 22, method: 'tools/list' });
          const err = oneLineRpcError(await mcp.answerTo(21, ANSWER_MS), 'an 11 MiB message', 21);
          if (err) return err;
          const next = await mcp.answerTo(22, ANSWER_MS);
          if (!next?.result) return wrong(undefined, `issueloc mcp: the call after the 11 MiB message: ${next ? JSON.stringify(next).slice(0, 200) : 'no answer'}`);
          const end = await mcp.end();
          return end.timedOut || end.code !== 0 ? wrong(undefined, `issueloc mcp: stdin closed: ${end.timedOut ? 'no exit' : `exit ${end.code ?? end.signal}`}`) : crashed(mcp);
        });
      } finally {
        mcp.kill();
      }
    },
  },
  {
    area: 'protocol', name: 'mcp-stdin-closed-after-call', quick: true,
    expect: '`issueloc mcp` whose stdin closes right after a `localize` call: the call is answered, then exit 0',
    async run(ctx) {
      const repo = await shopRepo(ctx.shared);
      const mcp = new McpChild(ctx, repo, join(ctx.dir(), 'c'));
      try {
        await mcp.initialize();
        await ctx.attempt('call, then EOF', async () => {
          mcp.send({ id: 31, method: 'tools/call', params: { name: 'localize', arguments: { issue: 'Coupon discount is applied twice in total_price' } } });
          const end = await mcp.end(60_000);
          const m = mcp.messages.find((x) => x.id === 31);
          if (!m?.result) return wrong(undefined, `issueloc mcp: the call before EOF: ${m ? JSON.stringify(m).slice(0, 200) : 'no answer'} (exit ${end.code ?? end.signal})`);
          return end.timedOut || end.code !== 0 ? wrong(undefined, `issueloc mcp: ${end.timedOut ? 'no exit' : `exit ${end.code ?? end.signal}`} after EOF`) : crashed(mcp);
        });
      } finally {
        mcp.kill();
      }
    },
  },
];
