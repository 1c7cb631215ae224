/**
 * The optional parts of issueloc and the packages each needs. Those packages are optional peer
 * dependencies (package.json `peerDependencies` marked optional in `peerDependenciesMeta`): npm
 * installs them with issueloc only when asked (`npm install fastify@^5`), not with every install;
 * the core (`localize`, `index`, `eval`, `dataset`, the library) needs none of them. A part checks
 * its packages before loading them ({@link requireParts}) and, when some are missing, is refused
 * with one line that names them and the command installing them (exit code 2).
 */
import { IssuelocError } from '../errors.js';
import { peerRange } from '../version.js';

/** Each optional part: the packages it loads. */
export const OPTIONAL_PARTS = {
  serve: ['fastify', 'prom-client', '@modelcontextprotocol/sdk', 'zod'],
  mcp: ['@modelcontextprotocol/sdk', 'zod'],
  'batch --queue': ['bullmq', 'ioredis'],
  stats: ['@stdlib/math-base-special-gammainc', '@stdlib/stats-base-dists-t-cdf'],
  charts: ['vega', 'vega-lite', '@resvg/resvg-js'],
  comment: ['@actions/github'],
  '--embedder onnx': ['@huggingface/transformers'],
  '--rerank gguf': ['node-llama-cpp'],
} as const satisfies Record<string, readonly string[]>;

/** An optional part of {@link OPTIONAL_PARTS}. */
export type OptionalPart = keyof typeof OPTIONAL_PARTS;

/**
 * Whether a package can be imported from here. A package whose `exports` has no `.` entry (the
 * MCP SDK) resolves with ERR_PACKAGE_PATH_NOT_EXPORTED: present all the same.
 */
export function isInstalled(name: string): boolean {
  try {
    import.meta.resolve(name);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND';
  }
}

/**
 * The missing packages of optional parts, with the line refusing `what`: `serve needs fastify,
 * prom-client: npm install fastify@^5.12.8 prom-client@^15.1.3`; undefined when none is missing.
 * @param installed tells whether a package is there (default {@link isInstalled}; tests fake it).
 */
export function missingPartsMessage(what: string, parts: readonly OptionalPart[], installed: (name: string) => boolean = isInstalled): string | undefined {
  const missing = [...new Set(parts.flatMap((p) => OPTIONAL_PARTS[p]))].filter((n) => !installed(n));
  if (missing.length === 0) return undefined;
  const specs = missing.map((n) => {
    const range = peerRange(n);
    return range ? `${n}@${range}` : n;
  });
  return `${what} needs ${missing.join(', ')}: npm install ${specs.join(' ')}`;
}

/**
 * Refuses `what` (a command or an option) when a package of its optional parts is not installed.
 * @throws IssuelocError (exit code 2) naming the missing packages and the command installing them.
 */
export function requireParts(what: string, ...parts: OptionalPart[]): void {
  const message = missingPartsMessage(what, parts);
  if (message) throw new IssuelocError(message);
}
