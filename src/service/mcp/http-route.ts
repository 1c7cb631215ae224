/**
 * The MCP tools over the streamable HTTP transport, as one route of a fastify server
 * (`issueloc serve` mounts it at `/mcp`). Stateless: each POST gets its own MCP server and
 * transport (no session to keep or expire) over the one shared {@link McpTools}, and is answered
 * with JSON; GET (a server-to-client stream) and DELETE (ending a session) answer 405, as the
 * transport's specification allows a server without sessions. A request from a web page of
 * another origin is refused (403): an MCP endpoint on 127.0.0.1 must not be reachable from any
 * site the user visits (DNS rebinding).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Admission } from '../admission.js';
import { McpTools, oneLine, type McpSource, type McpToolsOptions } from './tools.js';

/** Options of {@link registerMcpRoute}. */
export interface McpRouteOptions extends McpToolsOptions {
  /** The route's path (default `/mcp`). */
  path?: string;
  /**
   * The server's admission bound: a request takes one slot per `tools/call` of its body (a
   * JSON-RPC batch: each) before it runs, or is answered 429 (503 while draining). The pool's
   * backend should be the server's admitted one, so that a call's slot is held until its work ends.
   */
  admission?: Admission;
}

/**
 * Registers the MCP endpoint on `app` (before it listens); the tools' git processes are closed
 * with the app (an onClose hook), the pool stays the caller's.
 * @example registerMcpRoute(app, pool); // POST /mcp
 */
export function registerMcpRoute(app: FastifyInstance, pool: McpSource, options: McpRouteOptions = {}): void {
  const path = options.path ?? '/mcp';
  const onError = options.onError ?? ((m: string) => app.log.error(m));
  const tools = new McpTools(pool, { ...options, onError });
  app.addHook('onClose', () => tools.close());

  app.post(path, async (request, reply) => {
    if (!sameOrigin(request)) return reply.code(403).send(rpcError(-32000, 'requests from another origin are refused'));
    const calls = toolCalls(request.body);
    const refused = options.admission?.refusal(calls);
    if (refused) return reply.code(refused.status).header('retry-after', String(refused.retryAfterSeconds ?? 1)).send(rpcError(-32000, refused.message));
    return options.admission && calls > 0 ? options.admission.reserve(calls, () => answer(request, reply)) : answer(request, reply);
  });

  /** Answers one MCP request on its own server and transport (the reply is hijacked). */
  async function answer(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const server = tools.server();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (e) {
      onError(`MCP request failed: ${oneLine(e)}`);
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json' });
      if (!reply.raw.writableEnded) reply.raw.end(JSON.stringify(rpcError(-32603, 'internal error')));
    }
  }
  const notAllowed = async (_: FastifyRequest, reply: FastifyReply) =>
    reply.code(405).header('allow', 'POST').send(rpcError(-32000, 'method not allowed: this MCP endpoint has no sessions; POST each request'));
  app.get(path, notAllowed);
  app.delete(path, notAllowed);
}

/** The `tools/call` requests of a JSON-RPC body (one message or a batch). */
function toolCalls(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((m) => (m as { method?: unknown } | null)?.method === 'tools/call').length;
}

/** A JSON-RPC error without an id (the request's is not known). */
function rpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

/** true without an Origin header (agents, curl) or when the Origin's host is the Host the request was sent to. */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}
