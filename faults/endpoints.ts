/**
 * A misbehaving OpenAI-compatible server on 127.0.0.1 (embeddings and chat completions), whose
 * behaviour the probe sets before each run: good answers (deterministic: word-hash vectors; the
 * reranker reverses each window), or one of the faults below. `refusedUrl()` gives a URL nothing
 * listens on.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HUGE_ANSWER_BYTES } from './interface.js';

/** Faults both endpoints can show. */
export const TRANSPORT_FAULTS = ['never-answers', 'slow', 'http-500', 'huge', 'garbage-json'] as const;
/** Faults of the embeddings endpoint only: answers of the right shape holding broken vectors. */
export const VECTOR_FAULTS = ['null-vectors', 'string-vectors', 'empty-vectors', 'zero-vectors', 'infinite-values', 'wrong-dims', 'mixed-dims', 'too-few'] as const;
export type Behaviour = 'good' | (typeof TRANSPORT_FAULTS)[number] | (typeof VECTOR_FAULTS)[number];

const DIM = 16;
/** Where a huge answer's padding goes. */
const PAD = '__PAD__';

function hashVector(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 0x811c9dc5;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193) >>> 0;
    v[h % dim] += 1;
  }
  v[dim - 1] += 0.5; // never all zero
  return v;
}

/** The server; set `embed` / `chat` to choose how each endpoint answers. */
export class FaultyEndpoints {
  embed: Behaviour = 'good';
  chat: Behaviour = 'good';
  /** Requests received, per path. */
  readonly requests = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private constructor(private readonly server: Server, readonly url: string) {}

  static async start(): Promise<FaultyEndpoints> {
    const holder: { self?: FaultyEndpoints } = {};
    const server = createServer((req, res) => holder.self!.handle(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const self = new FaultyEndpoints(server, `http://127.0.0.1:${port}/v1`);
    holder.self = self;
    server.on('connection', (s) => { self.sockets.add(s); s.on('close', () => self.sockets.delete(s)); });
    return self;
  }

  /** A URL on 127.0.0.1 where nothing listens (a port just released). */
  static async refusedUrl(): Promise<string> {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const { port } = s.address() as AddressInfo;
    await new Promise<void>((r) => s.close(() => r()));
    return `http://127.0.0.1:${port}/v1`;
  }

  /** Ends every open connection (the never-answering and slow ones too). */
  dropConnections(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
    for (const s of this.sockets) s.destroy();
  }

  async close(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      this.requests.set(path, (this.requests.get(path) ?? 0) + 1);
      let body: Record<string, unknown> = {};
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'); } catch { /* answered below */ }
      if (path.endsWith('/embeddings')) this.answer(res, this.embed, (pad) => this.embeddings(body, pad));
      else if (path.endsWith('/chat/completions')) this.answer(res, this.chat, (pad) => this.completion(body, pad));
      else { res.writeHead(404, { 'content-type': 'application/json' }); res.end('{"error":"not found"}'); }
    });
  }

  private answer(res: ServerResponse, behaviour: Behaviour, good: (pad: boolean) => string): void {
    const json = (status: number, text: string) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(text); };
    switch (behaviour) {
      case 'never-answers':
        return; // the socket stays open until dropConnections()
      case 'slow': {
        // headers at once, then one byte of white space every 200 ms: the body never ends
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"data": ');
        const t = setInterval(() => { if (res.destroyed) { clearInterval(t); this.timers.delete(t); } else res.write(' '); }, 200);
        this.timers.add(t);
        return;
      }
      case 'http-500':
        return json(500, '{"error":{"message":"internal server error"}}');
      case 'garbage-json':
        return json(200, '{"data": [{"index": 0, "embedding": [0.1, 0.2,, ]}, {"choices": <html>oops</html>');
      case 'huge':
        return this.huge(res, good(true));
      default:
        return json(200, good(false));
    }
  }

  /** A well-formed answer whose `PAD` marker (inside a string) becomes {@link HUGE_ANSWER_BYTES} of `x`. */
  private huge(res: ServerResponse, text: string): void {
    const [head, tail] = text.split(PAD);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(head);
    const chunk = Buffer.alloc(1 << 20, 'x');
    let left = Math.ceil(HUGE_ANSWER_BYTES / chunk.length);
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        left--;
        if (!res.write(chunk)) { res.once('drain', pump); return; }
      }
      if (!res.destroyed) res.end(tail);
    };
    pump();
  }

  private embeddings(body: Record<string, unknown>, pad: boolean): string {
    const input = Array.isArray(body.input) ? (body.input as unknown[]).map(String) : [String(body.input ?? '')];
    const b = this.embed;
    const vectorOf = (t: string, i: number): unknown => {
      switch (b) {
        case 'null-vectors': return null;
        case 'string-vectors': return hashVector(t, DIM).map(String);
        case 'empty-vectors': return [];
        case 'zero-vectors': return new Array(DIM).fill(0);
        case 'infinite-values': return hashVector(t, DIM).map((x, k) => (k === 0 ? 'Infinity-placeholder' : x));
        case 'wrong-dims': return hashVector(t, input.length === 1 ? DIM / 2 : DIM); // the query's dimension differs
        case 'mixed-dims': return hashVector(t, i % 2 === 0 ? DIM : DIM - 3);
        default: return hashVector(t, DIM);
      }
    };
    const items = input.map((t, index) => ({ object: 'embedding', index, embedding: vectorOf(t, index) }));
    const data = b === 'too-few' ? items.slice(0, Math.max(0, items.length - 1)) : items;
    const text = JSON.stringify({ ...(pad ? { padding: PAD } : {}), object: 'list', data, model: body.model });
    // JSON has no Infinity: the number 1e999, which JSON.parse reads as Infinity
    return text.replace(/"Infinity-placeholder"/g, '1e999');
  }

  private completion(body: Record<string, unknown>, pad: boolean): string {
    const messages = Array.isArray(body.messages) ? (body.messages as { content?: string }[]) : [];
    const prompt = messages.map((m) => String(m.content ?? '')).join('\n');
    const ids = [...prompt.matchAll(/^\[(\w+)\] /gm)].map((m) => m[1]).reverse(); // the good reranker reverses the window
    const wantLogprobs = body.logprobs === true;
    const text = wantLogprobs ? (ids[0] ?? '') : ids.map((id) => `[${id}]`).join(' > ');
    const top = ids.map((id, i) => ({ token: id, logprob: -i }));
    return JSON.stringify({
      id: 'faulty', object: 'chat.completion', model: body.model,
      choices: [{
        index: 0, message: { role: 'assistant', content: pad ? `${text} ${PAD}` : text }, finish_reason: 'stop',
        logprobs: wantLogprobs ? { content: [{ token: ids[0] ?? '', logprob: 0, top_logprobs: top.slice(0, Number(body.top_logprobs ?? 20)) }] } : null,
      }],
      usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: 1, total_tokens: 0 },
    });
  }
}
