// A fake GitHub REST API on 127.0.0.1 (a random port) with just the calls of `issueloc comment`:
// list an issue's comments (paginated with Link headers), create a comment, edit one. It checks
// the Authorization header, records every request, and fails the next requests on demand.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
}

export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  authorization: string | undefined;
  body?: unknown;
}

/** An answer forced on the next request(s) matching `method` (any when undefined). */
export interface Fault {
  method?: string;
  status: number;
  headers?: Record<string, string>;
  message?: string;
  /** Never answer (the client's timeout must end the wait). */
  hang?: boolean;
}

export class FakeGitHub {
  readonly requests: RecordedRequest[] = [];
  /** Comments per `owner/repo#number`, oldest first. */
  readonly comments = new Map<string, FakeComment[]>();
  readonly faults: Fault[] = [];
  /** Comments per page when the client asks for more (GitHub's would be 100: small to test paging). */
  pageSize = 3;
  private nextId = 1000;
  private server: Server | undefined;
  url = '';

  constructor(readonly token = 'test-token') {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  /** Adds comments by others (and, with `body` starting with the marker, an old issueloc one). */
  seed(key: string, bodies: { body: string; login?: string; type?: string }[]): FakeComment[] {
    const list = this.comments.get(key) ?? [];
    for (const b of bodies) list.push({ id: this.nextId++, body: b.body, user: { login: b.login ?? 'someone', type: b.type ?? 'User' } });
    this.comments.set(key, list);
    return list;
  }

  /** Requests that wrote: POST and PATCH. */
  writes(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' || r.method === 'PATCH');
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const rec: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization };
    if (text) rec.body = JSON.parse(text);
    this.requests.push(rec);
    const send = (status: number, data: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(data));
    };
    const fault = this.faults.findIndex((f) => !f.method || f.method === req.method);
    if (fault >= 0) {
      const [f] = this.faults.splice(fault, 1);
      if (f.hang) return;
      return send(f.status, { message: f.message ?? `fault ${f.status}` }, f.headers);
    }
    if (req.headers.authorization !== `token ${this.token}` && req.headers.authorization !== `Bearer ${this.token}`) {
      return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    }
    const u = new URL(req.url ?? '/', this.url);
    let m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(u.pathname);
    if (m) {
      const key = `${m[1]}/${m[2]}#${m[3]}`;
      const list = this.comments.get(key) ?? [];
      if (req.method === 'GET') {
        const per = Math.min(this.pageSize, Number(u.searchParams.get('per_page') ?? 30));
        const page = Number(u.searchParams.get('page') ?? 1);
        const last = Math.max(1, Math.ceil(list.length / per));
        const link = (p: number) => `<${this.url}${u.pathname}?per_page=${per}&page=${p}>`;
        const links = [];
        if (page < last) links.push(`${link(page + 1)}; rel="next"`, `${link(last)}; rel="last"`);
        if (page > 1) links.push(`${link(1)}; rel="first"`, `${link(page - 1)}; rel="prev"`);
        return send(200, list.slice((page - 1) * per, page * per).map((c) => this.view(c, m![1], m![2], m![3])), links.length ? { link: links.join(', ') } : {});
      }
      if (req.method === 'POST') {
        const c: FakeComment = { id: this.nextId++, body: (rec.body as { body: string }).body, user: { login: 'github-actions[bot]', type: 'Bot' } };
        list.push(c);
        this.comments.set(key, list);
        return send(201, this.view(c, m[1], m[2], m[3]));
      }
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(u.pathname);
    if (m && req.method === 'PATCH') {
      for (const [key, list] of this.comments) {
        const c = list.find((x) => x.id === Number(m![3]));
        if (c && key.startsWith(`${m[1]}/${m[2]}#`)) {
          c.body = (rec.body as { body: string }).body;
          return send(200, this.view(c, m[1], m[2], key.split('#')[1]));
        }
      }
    }
    send(404, { message: 'Not Found' });
  }

  private view(c: FakeComment, owner: string, repo: string, issue: string) {
    return { id: c.id, body: c.body, user: c.user, html_url: `https://github.example/${owner}/${repo}/issues/${issue}#issuecomment-${c.id}` };
  }
}
