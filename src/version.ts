import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The package's package.json, found relative to the compiled module (dist/src/version.js ->
 * ../../package.json), which holds in a checkout and in an installed package alike.
 */
const PACKAGE_JSON = fileURLToPath(new URL('../../package.json', import.meta.url));

/**
 * issueloc's version: package.json's `version`, read at run time (package.json is the only place
 * the version is written).
 * @throws Error naming package.json when it is unreadable or has no string `version` (a broken install).
 */
export function packageVersion(): string {
  let version: unknown;
  try {
    version = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version?: unknown }).version;
  } catch (e) {
    throw new Error(`cannot read the version from ${PACKAGE_JSON}: ${(e as Error).message}`);
  }
  if (typeof version !== 'string' || version === '') throw new Error(`${PACKAGE_JSON} has no version`);
  return version;
}

/**
 * The version range package.json asks of a peer dependency (`fastify` → `^5.12.8`), or undefined
 * when it names none (or package.json is unreadable).
 */
export function peerRange(name: string): string | undefined {
  try {
    const range = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { peerDependencies?: Record<string, unknown> }).peerDependencies?.[name];
    return typeof range === 'string' ? range : undefined;
  } catch {
    return undefined;
  }
}
