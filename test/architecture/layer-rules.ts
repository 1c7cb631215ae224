/**
 * The layer rule of ARCHITECTURE.md as code: the layer table read from the document, every
 * relative import of src/ and bench/ read with TypeScript's pre-processor, and the imports that
 * break the rule.
 *
 * Rule: a module belongs to the member (a folder such as `src/ltr/`, or a file such as
 * `src/errors.ts`) that names it most precisely; it may import modules of its own member and of
 * members in lower layers. Members of one layer are independent of each other. `test/` is no
 * layer: bench/ and faults/ may use its fixture builders, src/ may not import it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** One member of the layer table: a folder (ending in `/`) or a file, repository-relative. */
export interface LayerMember {
  member: string;
  layer: number;
}

/** One relative import of a module: both repository-relative, the target as a `.ts`/`.json` path. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** An import the rule refuses, with the reason in words. */
export interface Violation extends ImportEdge {
  reason: string;
}

/**
 * The members of the `## Layers` table of ARCHITECTURE.md: rows `| N | \`a/\`, \`b.ts\` | … |`.
 * @throws Error when the section or its table is missing, or a member is listed twice.
 */
export function parseLayerTable(markdown: string): LayerMember[] {
  const section = /^## Layers\b[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown);
  if (!section) throw new Error('ARCHITECTURE.md has no "## Layers" section');
  const members: LayerMember[] = [];
  for (const line of section[1].split('\n')) {
    const row = /^\|\s*(\d+)\s*\|([^|]*)\|/.exec(line);
    if (!row) continue;
    for (const m of row[2].matchAll(/`([^`]+)`/g)) {
      if (members.some((x) => x.member === m[1])) throw new Error(`ARCHITECTURE.md lists ${m[1]} twice`);
      members.push({ member: m[1], layer: Number(row[1]) });
    }
  }
  if (members.length === 0) throw new Error('the "## Layers" section of ARCHITECTURE.md has no table rows');
  return members;
}

/** The member that names `path` most precisely (the file itself, else its deepest folder), or undefined. */
export function memberOf(path: string, members: readonly LayerMember[]): LayerMember | undefined {
  let best: LayerMember | undefined;
  for (const m of members) {
    const hit = m.member.endsWith('/') ? path.startsWith(m.member) : path === m.member;
    if (hit && (!best || m.member.length > best.member.length)) best = m;
  }
  return best;
}

/** `.ts` files below `dir` (repository-relative, `/`-separated), `.d.ts` left out. */
export function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/**
 * The relative imports of one module (static, `export … from`, dynamic and type-only alike):
 * targets resolved against the module's folder, `.js` read as the `.ts` it is compiled from.
 * Package imports (`commander`, `node:fs`) are no edges.
 */
export function importsOf(path: string, source: string): ImportEdge[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith('./') || spec.startsWith('../'))
    .map((spec) => ({ from: path, to: posix.normalize(posix.join(posix.dirname(path), spec)).replace(/\.js$/, '.ts') }));
}

/** Every relative import of the `.ts` files below each of `dirs` of the repository at `root`. */
export function repositoryImports(root: string, dirs: readonly string[]): ImportEdge[] {
  return dirs.flatMap((d) => sourceFiles(root, d)).flatMap((f) => importsOf(f, readFileSync(join(root, f), 'utf8')));
}

/** The imports of `edges` that break the layer rule of `members`. */
export function layerViolations(edges: readonly ImportEdge[], members: readonly LayerMember[]): Violation[] {
  const out: Violation[] = [];
  for (const e of edges) {
    const from = memberOf(e.from, members);
    if (!from) {
      out.push({ ...e, reason: `${e.from} is in no layer of ARCHITECTURE.md` });
      continue;
    }
    if (e.to.startsWith('test/')) {
      if (!e.from.startsWith('bench/') && !e.from.startsWith('faults/')) out.push({ ...e, reason: 'only bench/ and faults/ may use the fixture builders of test/' });
      continue;
    }
    const to = memberOf(e.to, members);
    if (!to) out.push({ ...e, reason: `${e.to} is in no layer of ARCHITECTURE.md` });
    else if (to.member !== from.member && to.layer >= from.layer) {
      out.push({
        ...e,
        reason: `${from.member} (layer ${from.layer}) may import only lower layers, and ${to.member} is layer ${to.layer}`,
      });
    }
  }
  return out;
}

/** The repository root of the compiled tests (dist/test/architecture → ../../..). */
export function repositoryRoot(moduleUrl: string): string {
  return join(dirname(fileURLToPath(moduleUrl)), '..', '..', '..');
}
