/**
 * Rust crates of a tree: where each crate's folder is and the name its code is written under
 * (`crates/searcher/Cargo.toml`, `[package] name = "grep-searcher"` → `grep_searcher`), so that
 * an issue's `grep_searcher::Searcher` or `bytes::BytesMut` names the crate's files.
 */
import type { TreeEntry } from '../repo/git.js';
import { isTestPath, isVendoredPath } from './languages.js';

/** A Rust crate of a tree: its folder (`''` for the repository's root) and its name in code. */
export interface RustCrate {
  folder: string;
  /** The library's name as code writes it: `[lib] name`, else `[package] name`, `-` read as `_`. */
  name: string;
}

/** At most this many manifests are read per tree (in listing order); the rest are ignored. */
export const MAX_CARGO_MANIFESTS = 256;
/** Manifests larger than this many bytes are ignored. */
export const MAX_CARGO_MANIFEST_BYTES = 64 * 1024;

/**
 * The `Cargo.toml` files of a tree listing whose crates may hold indexed code: outside vendored
 * folders and test paths, at most {@link MAX_CARGO_MANIFEST_BYTES} each (when the size is known),
 * the first {@link MAX_CARGO_MANIFESTS} in listing order.
 */
export function cargoManifests(entries: readonly TreeEntry[]): TreeEntry[] {
  const out: TreeEntry[] = [];
  for (const e of entries) {
    if (e.path !== 'Cargo.toml' && !e.path.endsWith('/Cargo.toml')) continue;
    if (isVendoredPath(e.path) || isTestPath(e.path) || (e.size !== undefined && e.size > MAX_CARGO_MANIFEST_BYTES)) continue;
    out.push(e);
    if (out.length >= MAX_CARGO_MANIFESTS) break;
  }
  return out;
}

/**
 * The name a crate's code is written under, from its manifest's text: the `name` of its `[lib]`
 * table, else of its `[package]` table, `-` read as `_`; undefined for a manifest without one (a
 * virtual workspace's root) or whose name is not a plain identifier. A line reader of those two
 * keys (`name = "x"` or `'x'`, comments after), not a TOML parser: nothing else is read.
 */
export function crateNameOf(manifest: string): string | undefined {
  let table = '';
  const names: Record<string, string> = {};
  for (const raw of manifest.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9_.-]+)\s*\]/.exec(line);
    if (header) { table = header[1]; continue; }
    if (table !== 'package' && table !== 'lib') continue;
    const m = /^name\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(line);
    if (m && names[table] === undefined) names[table] = m[1] ?? m[2];
  }
  const name = (names.lib ?? names.package)?.replace(/-/g, '_');
  return name !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : undefined;
}

/** The folder of a manifest path (`crates/searcher/Cargo.toml` → `crates/searcher`; `Cargo.toml` → `''`). */
export function manifestFolder(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}
