/**
 * The stdio transport of `issueloc mcp`: newline-delimited JSON-RPC on stdin/stdout, as the MCP
 * SDK's `StdioServerTransport` speaks it, but every line gets an answer. The SDK's own transport
 * drops a line that is not JSON-RPC without a word (the client waits for its own timeout), closes
 * itself on a message over its 10 MiB buffer, and leaves calls unanswered when stdin closes. Here:
 *
 * - a line that is not JSON: error -32700 (id null); JSON that is no JSON-RPC 2.0 message (no or
 *   another `jsonrpc`, `"params": null`, a list): error -32600 with the message's id when it has one;
 * - a message over {@link MAX_MESSAGE_BYTES}: skipped to its line end, never held whole, and
 *   answered with error -32600 (its id when its first bytes name one); the server goes on;
 * - every error answer is one line (the SDK's validation dumps are shortened to their messages);
 * - when stdin ends, the calls received are answered (within `drainMs`) before the transport closes.
 *
 * The protocol itself (initialize, tools) stays the SDK's: this only moves messages.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The largest message read (the SDK's stdio buffer: 10 MiB); a longer line is refused, not read. */
export const MAX_MESSAGE_BYTES = 10 << 20;
/** How much of a refused message is kept to find its id. */
const ID_SEARCH_BYTES = 64 << 10;
/** Characters of an error message at most. */
const MESSAGE_CHARS = 500;

type Id = string | number | null;

/** The start of a zod error's message: a JSON list of issues. */
const VALIDATION_DUMP = /^(MCP error -?\d+: )?[^\n]*\[\s*\{\s*"(expected|code|origin|message|path)"/;

/** Options of {@link LineTransport}. */
export interface LineTransportOptions {
  /** Largest message in bytes (default {@link MAX_MESSAGE_BYTES}). */
  maxMessageBytes?: number;
  /** How long calls received before stdin ended may take to be answered before the transport closes (ms). */
  drainMs: number;
}

/** A {@link Transport} over a line-delimited stream pair (stdin/stdout); see the file comment. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxBytes: number;
  private chunks: Buffer[] = [];
  private size = 0;
  /** The first bytes of a line over the limit, while the rest of it is skipped. */
  private refused: Buffer | undefined;
  /** Ids of requests passed on and not answered yet. */
  private readonly pending = new Set<string | number>();
  private ended = false;
  private closed = false;
  private drainTimer: NodeJS.Timeout | undefined;

  constructor(private readonly input: Readable, private readonly output: Writable, private readonly options: LineTransportOptions) {
    this.maxBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const m = message as { id?: Id; result?: unknown; error?: { code?: unknown; message?: unknown } };
    if (m.error && typeof m.error.message === 'string') {
      // the SDK answers params that fail its schema as an internal error with the schema's dump
      const invalidParams = m.error.code === -32603 && VALIDATION_DUMP.test(m.error.message);
      m.error = { ...m.error, ...(invalidParams ? { code: -32602 } : {}), message: oneLineMessage(m.error.message) };
    }
    await this.write(message);
    if (m.id !== undefined && m.id !== null && (m.result !== undefined || m.error !== undefined)) {
      this.pending.delete(m.id);
      if (this.ended && this.pending.size === 0) setImmediate(() => void this.close());
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.drainTimer);
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.input.pause();
    this.chunks = [];
    this.refused = undefined;
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let start = 0; ;) {
      const nl = buf.indexOf(0x0a, start);
      this.take(buf.subarray(start, nl < 0 ? buf.length : nl));
      if (nl < 0) return;
      this.endLine();
      start = nl + 1;
    }
  };

  private readonly onEnd = () => {
    if (this.size > 0 || this.refused) this.endLine();
    this.ended = true;
    if (this.pending.size === 0) {
      void this.close();
      return;
    }
    this.drainTimer = setTimeout(() => void this.close(), this.options.drainMs);
  };

  private readonly onInputError = (e: Error) => {
    this.onerror?.(e);
  };

  private take(piece: Buffer): void {
    if (this.refused) return;
    if (this.size + piece.length <= this.maxBytes) {
      if (piece.length > 0) this.chunks.push(piece);
      this.size += piece.length;
      return;
    }
    this.refused = Buffer.concat([...this.chunks, piece]).subarray(0, ID_SEARCH_BYTES);
    this.chunks = [];
    this.size = 0;
  }

  private endLine(): void {
    const refused = this.refused;
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    this.refused = undefined;
    if (refused) {
      this.answerError(leadingId(refused.toString('utf8')), -32600, `Invalid Request: message over ${this.maxBytes} bytes, not read`);
      return;
    }
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      this.answerError(null, -32700, `Parse error: not JSON (${oneLineMessage((e as Error).message)})`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.answerError(idOf(value), -32600, `Invalid Request: ${whatIsWrong(value)}`);
      return;
    }
    const message = parsed.data;
    if ('method' in message && 'id' in message) this.pending.add(message.id);
    this.onmessage?.(message);
  }

  private answerError(id: Id, code: number, message: string): void {
    this.write({ jsonrpc: '2.0', id, error: { code, message } }).catch((e: unknown) => this.onerror?.(e as Error));
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      this.output.write(`${JSON.stringify(message)}\n`, (e) => (e ? reject(e) : resolve()));
    });
  }
}

/** The id of a parsed message, when it is a string or a number. */
function idOf(value: unknown): Id {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** What makes a parsed value no JSON-RPC 2.0 message, in a few words. */
function whatIsWrong(value: unknown): string {
  if (Array.isArray(value)) return 'a list (batches are not supported): send one message a line';
  if (value === null || typeof value !== 'object') return 'not a JSON object';
  const v = value as Record<string, unknown>;
  if (v.jsonrpc !== '2.0') return v.jsonrpc === undefined ? 'no "jsonrpc": "2.0"' : `"jsonrpc" is ${JSON.stringify(v.jsonrpc).slice(0, 40)}, not "2.0"`;
  if ('params' in v && (v.params === null || typeof v.params !== 'object' || Array.isArray(v.params))) return '"params" must be an object when given';
  if (v.method !== undefined && typeof v.method !== 'string') return '"method" must be a string';
  if (v.id !== undefined && idOf(v) === null) return '"id" must be a string or a number';
  return 'not a JSON-RPC request, notification or response';
}

/**
 * The id of a message from its first bytes: the value of a top-level `"id"` key met before the
 * bytes end (a number or a string without escapes), else null.
 */
export function leadingId(head: string): Id {
  let depth = 0;
  let key: string | undefined;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === '"') {
      const end = head.indexOf('"', i + 1);
      if (end < 0 || head.lastIndexOf('\\', end) > i) return null;
      const s = head.slice(i + 1, end);
      const after = /^\s*:/.exec(head.slice(end + 1, end + 20));
      if (depth === 1 && after) key = s;
      else if (depth === 1 && key === 'id') return s;
      i = end;
    } else if (c === '{' || c === '[') {
      depth++;
      key = undefined;
    } else if (c === '}' || c === ']') {
      depth--;
    } else if (depth === 1 && key === 'id' && /[-\d]/.test(c)) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(head.slice(i));
      return m ? Number(m[0]) : null;
    } else if (c === ',') {
      key = undefined;
    }
  }
  return null;
}

/**
 * An error message on one line: the SDK's validation errors (`MCP error -32602: Invalid
 * tools/call request: [ { "message": …, "path": […] } ]`) as `Invalid tools/call request:
 * <message> at <path>; …`, any other line break a `; `, cut at 500 characters.
 */
export function oneLineMessage(message: string): string {
  let m = message.replace(/^MCP error -?\d+: /, '');
  const open = m.search(/\[\s*\{/);
  if (open >= 0) {
    try {
      const issues = JSON.parse(m.slice(open)) as { message?: unknown; path?: unknown }[];
      if (Array.isArray(issues)) {
        m = m.slice(0, open) + issues.map((i) => `${String(i.message ?? 'invalid')}${Array.isArray(i.path) && i.path.length > 0 ? ` at ${i.path.join('.')}` : ''}`).join('; ');
      }
    } catch {
      // not a list of issues: the text as it is
    }
  }
  m = m.split(/\s*\n\s*/).filter((l) => l !== '').join('; ');
  return m.length > MESSAGE_CHARS ? `${m.slice(0, MESSAGE_CHARS)}…` : m;
}
