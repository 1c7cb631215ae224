/**
 * An independent fake of a listwise reranker behind an OpenAI-compatible chat endpoint, written
 * from the RankGPT / SweRank numeric protocol and not from issueloc's prompt code (Sun et al.,
 * EMNLP 2023; rank_llm's and SweRank's `create_prompt` / `receive_permutation`):
 *
 *   - the prompt numbers its passages `[1]`, `[2]`, … `[N]`, each marker at the start of a line
 *     of the user message and followed by a space; the numbers run 1, 2, 3, … in order (a
 *     `[7]` out of sequence, say inside code, is part of the passage before it). A passage runs
 *     to the next marker; the last one to the end of the message.
 *   - the answer is the whole permutation `[k] > [i] > …` of 1…N, the preferred passage first:
 *     the first one whose text holds `preferWord` (as a whole word, any case); the others follow
 *     in their given order. With no passage holding the word the answer is the given order.
 *   - with no numbered passage at all (identifiers of another kind) it answers `[1]`, the start
 *     of the ranking a model trained on numeric identifiers writes first.
 *   - it never gives log-probabilities (`logprobs: null` even when asked), as a server for a
 *     model used in generation mode, or Ollama's OpenAI layer.
 *   - the answer is cut at `max_tokens`, counting `[`, `]`, each digit run, ` >` and each other
 *     character as a token.
 *
 * Listens on 127.0.0.1 at a random port; every request body is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRankGpt {
  url: string;
  /** Word whose passage is put first. */
  preferWord: string;
  requests: { path: string; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

/** The passages of a RankGPT-style message, in marker order: `[1] …`, `[2] …`, … */
export function numberedPassages(message: string): string[] {
  const passages: string[] = [];
  const lines = message.split('\n');
  let current: string[] | undefined;
  for (const line of lines) {
    const next = `[${passages.length + (current ? 1 : 0) + 1}] `;
    if (line.startsWith(next)) {
      if (current) passages.push(current.join('\n'));
      current = [line.slice(next.length)];
    } else if (current) {
      current.push(line);
    }
  }
  if (current) passages.push(current.join('\n'));
  return passages;
}

/** The permutation the fake answers for `passages` (1-based identifiers, RankGPT's `[] > []`). */
export function preferredPermutation(passages: readonly string[], word: string): string {
  if (passages.length === 0) return '[1]';
  const re = new RegExp(`\\b${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i');
  const best = passages.findIndex((p) => re.test(p));
  const order = passages.map((_, i) => i);
  if (best > 0) order.unshift(...order.splice(best, 1));
  return order.map((i) => `[${i + 1}]`).join(' > ');
}

export async function startFakeRankGpt(preferWord = 'needle'): Promise<FakeRankGpt> {
  const requests: FakeRankGpt['requests'] = [];
  const fake = { preferWord, requests } as FakeRankGpt;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      requests.push({ path: req.url ?? '', body });
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end('{"error":"not found"}');
      }
      const messages = (body.messages ?? []) as { role: string; content: string }[];
      const user = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
      const full = preferredPermutation(numberedPassages(user), fake.preferWord);
      const tokens = full.match(/\d+|\s*>|./g) ?? [];
      const text = tokens.slice(0, Math.max(1, Number(body.max_tokens ?? tokens.length))).join('');
      const prompt = messages.map((m) => m.content).join('\n');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({
        id: 'rankgpt', object: 'chat.completion', model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: tokens.length, total_tokens: 0 },
      }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}/v1`;
  fake.close = () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  return fake;
}
