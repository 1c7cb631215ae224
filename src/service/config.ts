/**
 * The service's configuration: the repositories it may open, by name, and its limits. Read from
 * `issueloc.config.json` (or `.yaml` / `.yml`) and from flags (`--repo NAME=PATH`, repeatable);
 * every value is checked here, a bad one refused with one line naming the file and the key
 * (`issueloc.config.json: repositories.sympy.top: must be a whole number from 1 to 1000`).
 *
 * A request names a repository only by its configured name ({@link ServiceConfig.repositories}),
 * never by a path; a learned model only as `none`, `default` or a name of {@link ServiceConfig.models}.
 *
 * @example
 * {
 *   "repositories": {
 *     "sympy": { "path": "/srv/mirrors/sympy.git", "rev": "master", "model": "default", "top": 10 }
 *   },
 *   "cacheDir": "/var/cache/issueloc",
 *   "limits": { "memoryBudget": "1G", "concurrency": 32, "timeoutSeconds": 30 }
 * }
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { IssuelocError } from '../errors.js';
import { parseSize } from '../index/cache-usage.js';
import { LEVELS, type LevelChoice } from '../pipeline/result-json.js';
import { whyUnreadable } from '../util/file-errors.js';

/** The choices of what a result shows (the CLI's `--level`). */
export const LEVEL_CHOICES: readonly LevelChoice[] = [...LEVELS, 'all'];

/** Per-repository (or request) settings of a ranking. */
export interface RankSettings {
  /** Which rankings a result shows (default `all`). */
  level: LevelChoice;
  /** Items per level (default 10). */
  top: number;
  /** Learned model: `none` (lexical ranking), `default` (the built-in model) or a name of {@link ServiceConfig.models}. */
  model: string;
}

/** One repository the service may open. */
export interface RepositoryConfig {
  /** The name requests use (letters, digits, `.`, `_`, `-`; no `/`, not `.` or `..`). */
  name: string;
  /** Absolute path of a clone or a bare repository. */
  path: string;
  /** Default base commit of requests naming none (any git revision; default HEAD). */
  rev: string;
  /** Defaults of requests for this repository. */
  defaults: RankSettings;
}

/** Limits of the service; every wait and every input is bounded. */
export interface ServiceLimits {
  /** Bytes of a request body at most (default 1 MiB); a larger body is refused (413). */
  maxBodyBytes: number;
  /** UTF-8 bytes of an issue text at most (default 1 MiB). */
  maxIssueBytes: number;
  /** Milliseconds a request may take in all, waiting for an index build included (default 30 000). */
  timeoutMs: number;
  /** Localize requests admitted at once (running or queued); more are refused with 429 (default 32). */
  concurrency: number;
  /** Bytes of warm indexes kept in memory, an estimate from index sizes (default 1 GiB). */
  memoryBudgetBytes: number;
  /** Items per level a request may ask for at most (default 1000). */
  maxTop: number;
  /** Bytes of answers kept for requests asked again (answer-cache.ts; default 16 MiB, 0: none). */
  answerCacheBytes: number;
}

/** The whole configuration. */
export interface ServiceConfig {
  /** Repositories by name (a Map: a name such as `__proto__` is only a name). */
  repositories: ReadonlyMap<string, RepositoryConfig>;
  /** Learned-model files by name (absolute paths), for {@link RankSettings.model}. */
  models: ReadonlyMap<string, string>;
  /** Cache folder of every repository (default: each repository's own, see src/index/cache-dir.ts). */
  cacheDir?: string;
  limits: ServiceLimits;
  /** Where the configuration came from, for messages (`issueloc.config.json`, `--repo flags`). */
  source: string;
}

export const DEFAULT_LIMITS: ServiceLimits = {
  maxBodyBytes: 1 << 20,
  maxIssueBytes: 1 << 20,
  timeoutMs: 30_000,
  concurrency: 32,
  memoryBudgetBytes: 1 << 30,
  maxTop: 1000,
  answerCacheBytes: 16 << 20,
};

export const DEFAULT_RANK_SETTINGS: RankSettings = { level: 'all', top: 10, model: 'default' };

/** Names looked for in the working folder when no `--config` is given, in this order. */
export const CONFIG_FILE_NAMES = ['issueloc.config.json', 'issueloc.config.yaml', 'issueloc.config.yml'] as const;

/** A repository or model name: what a request may say. */
const NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;

/** Bytes of a configuration file at most. */
const MAX_CONFIG_BYTES = 1 << 20;

/**
 * The name a repository at `path` is served under when no name is given: its folder's name
 * (a bare `x.git` gives `x`, a clone's `x/.git` gives `x`), characters outside `[A-Za-z0-9._-]`
 * as `-`, at most 64 characters.
 */
export function repositoryNameOf(path: string): string {
  const abs = resolve(path);
  return basename(basename(abs) === '.git' ? dirname(abs) : abs).replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[.-]+/, '').slice(0, 64) || 'repo';
}

/**
 * One `--repo` flag: `NAME=PATH`, or a plain `PATH` named by {@link repositoryNameOf} (as
 * `issueloc localize --repo PATH` takes it). A flag whose part before the first `=` is no valid
 * name is a path.
 * @throws IssuelocError (exit 2) for an empty flag or an empty path.
 */
export function repoFlag(spec: string, cwd: string): { name: string; path: string } {
  const eq = spec.indexOf('=');
  if (eq > 0 && NAME.test(spec.slice(0, eq))) {
    if (eq === spec.length - 1) throw new IssuelocError(`--repo ${spec}: no path after '='`);
    return { name: spec.slice(0, eq), path: resolve(cwd, spec.slice(eq + 1)) };
  }
  if (spec === '') throw new IssuelocError(`--repo takes PATH or NAME=PATH, got ''`);
  const path = resolve(cwd, spec);
  return { name: repositoryNameOf(path), path };
}

/** Flags of `issueloc serve` that the configuration reads. */
export interface ConfigFlags {
  /** `--config FILE`; without it the first of {@link CONFIG_FILE_NAMES} in `cwd`, when there. */
  config?: string;
  /** `--repo NAME=PATH` or `--repo PATH`, repeatable; a name also in the file replaces the file's entry. */
  repo?: readonly string[];
  cacheDir?: string;
  /** Limits given as flags, over the file's. */
  limits?: Partial<ServiceLimits>;
}

/**
 * The configuration from the config file and the flags.
 * @param cwd where relative flag paths and the default config file are looked up.
 * @throws IssuelocError (exit 2) naming the file and key, or the flag, of a bad value; also when
 *   no repository is configured.
 */
export function loadServiceConfig(flags: ConfigFlags, cwd = process.cwd()): ServiceConfig {
  const file = flags.config !== undefined ? resolve(cwd, flags.config) : CONFIG_FILE_NAMES.map((n) => resolve(cwd, n)).find((p) => existsSync(p));
  const config = file !== undefined ? parseConfigText(readConfigFile(file), basename(file), dirname(file), file.endsWith('.json') ? 'json' : 'yaml') : emptyConfig('--repo flags');
  const repositories = new Map(config.repositories);
  const named = new Set<string>();
  for (const spec of flags.repo ?? []) {
    const { name, path } = repoFlag(spec, cwd);
    if (named.has(name)) throw new IssuelocError(`--repo ${spec}: a second repository named '${name}': give it another name (--repo NAME=PATH)`);
    named.add(name);
    repositories.set(name, { name, path, rev: 'HEAD', defaults: { ...DEFAULT_RANK_SETTINGS } });
  }
  if (repositories.size === 0) {
    throw new IssuelocError(file !== undefined ? `${basename(file)}: repositories: no repository configured` : `no repository configured: give --repo PATH (or NAME=PATH) or --config FILE (or put ${CONFIG_FILE_NAMES[0]} here)`);
  }
  const limits = { ...config.limits, ...flags.limits };
  return {
    ...config, repositories, limits,
    cacheDir: flags.cacheDir !== undefined ? resolve(cwd, flags.cacheDir) : config.cacheDir,
    source: file !== undefined && (flags.repo ?? []).length > 0 ? `${basename(file)} and --repo flags` : config.source,
  };
}

function emptyConfig(source: string): ServiceConfig {
  return { repositories: new Map(), models: new Map(), limits: { ...DEFAULT_LIMITS }, source };
}

function readConfigFile(file: string): string {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (e) {
    throw new IssuelocError(`cannot read config ${file}: ${whyUnreadable(e)}`);
  }
  if (buf.length > MAX_CONFIG_BYTES) throw new IssuelocError(`${basename(file)}: larger than ${MAX_CONFIG_BYTES} bytes`);
  return buf.toString('utf8');
}

/**
 * A configuration from its text (JSON or YAML); relative paths are taken from `baseDir`.
 * @param source the file's name, for messages.
 * @throws IssuelocError (exit 2) `<source>: <key>: <what is wrong>`.
 */
export function parseConfigText(text: string, source: string, baseDir: string, syntax: 'json' | 'yaml'): ServiceConfig {
  let raw: unknown;
  try {
    raw = syntax === 'json' ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
  } catch (e) {
    throw new IssuelocError(`${source}: not valid ${syntax === 'json' ? 'JSON' : 'YAML'}: ${(e as Error).message.split('\n')[0]}`);
  }
  const bad = (key: string, what: string): never => { throw new IssuelocError(`${source}: ${key}: ${what}`); };
  const top = record(raw, '(top level)', bad);
  knownKeys(top, ['repositories', 'models', 'cacheDir', 'limits'], '', bad);
  const path = (v: unknown, key: string) => {
    if (typeof v !== 'string' || v === '') return bad(key, 'must be a path (a non-empty string)');
    return isAbsolute(v) ? v : resolve(baseDir, v);
  };

  const models = new Map<string, string>();
  if (top.models !== undefined) {
    for (const [name, file] of Object.entries(record(top.models, 'models', bad))) {
      if (!NAME.test(name) || name === 'none' || name === 'default') bad(`models.${name}`, 'a model name is letters, digits, ".", "_", "-" (not none or default)');
      models.set(name, path(file, `models.${name}`));
    }
  }

  const repositories = new Map<string, RepositoryConfig>();
  if (top.repositories === undefined) bad('repositories', 'missing: name at least one repository');
  for (const [name, value] of Object.entries(record(top.repositories, 'repositories', bad))) {
    const key = `repositories.${name}`;
    if (!NAME.test(name) || name === '.' || name === '..') bad(key, 'a repository name is letters, digits, ".", "_", "-" (at most 64, no "/")');
    const r = typeof value === 'string' ? { path: value } : record(value, key, bad);
    knownKeys(r, ['path', 'rev', 'level', 'top', 'model'], `${key}.`, bad);
    if (r.rev !== undefined && (typeof r.rev !== 'string' || r.rev === '' || r.rev.startsWith('-') || /[\s\0]/.test(r.rev))) bad(`${key}.rev`, 'must be a git revision (no spaces, not starting with "-")');
    repositories.set(name, {
      name, path: path(r.path, `${key}.path`), rev: (r.rev as string | undefined) ?? 'HEAD',
      defaults: rankSettings(r, key, models, bad),
    });
  }

  const limits = { ...DEFAULT_LIMITS };
  if (top.limits !== undefined) {
    const l = record(top.limits, 'limits', bad);
    knownKeys(l, ['maxBodyBytes', 'maxIssueBytes', 'timeoutSeconds', 'concurrency', 'memoryBudget', 'maxTop', 'answerCache'], 'limits.', bad);
    const whole = (k: string, min: number, max: number) => {
      const v = l[k];
      if (v === undefined) return undefined;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) return bad(`limits.${k}`, `must be a whole number from ${min} to ${max}`);
      return v;
    };
    limits.maxBodyBytes = whole('maxBodyBytes', 1024, 1 << 30) ?? limits.maxBodyBytes;
    limits.maxIssueBytes = whole('maxIssueBytes', 1, 1 << 30) ?? limits.maxIssueBytes;
    limits.concurrency = whole('concurrency', 1, 10_000) ?? limits.concurrency;
    limits.maxTop = whole('maxTop', 1, 1_000_000) ?? limits.maxTop;
    const seconds = whole('timeoutSeconds', 1, 3600);
    if (seconds !== undefined) limits.timeoutMs = seconds * 1000;
    if (l.memoryBudget !== undefined) {
      const m = l.memoryBudget;
      if (typeof m === 'number' && Number.isInteger(m) && m > 0) limits.memoryBudgetBytes = m;
      else if (typeof m === 'string') {
        try {
          limits.memoryBudgetBytes = parseSize(m, 'limits.memoryBudget');
        } catch {
          bad('limits.memoryBudget', `takes a size such as 500M or 2G, got '${m}'`);
        }
      } else bad('limits.memoryBudget', 'takes a size such as 500M or 2G');
    }
    if (l.answerCache !== undefined) {
      const m = l.answerCache;
      if (typeof m === 'number' && Number.isInteger(m) && m >= 0) limits.answerCacheBytes = m;
      else if (typeof m === 'string') {
        try {
          limits.answerCacheBytes = parseSize(m, 'limits.answerCache');
        } catch {
          bad('limits.answerCache', `takes a size such as 16M, or 0 for none, got '${m}'`);
        }
      } else bad('limits.answerCache', 'takes a size such as 16M, or 0 for none');
    }
  }
  return {
    repositories, models, limits, source,
    cacheDir: top.cacheDir !== undefined ? path(top.cacheDir, 'cacheDir') : undefined,
  };
}

/** A repository's (or a request's) settings over {@link DEFAULT_RANK_SETTINGS}. */
function rankSettings(r: Record<string, unknown>, key: string, models: ReadonlyMap<string, string>, bad: (k: string, w: string) => never): RankSettings {
  const s = { ...DEFAULT_RANK_SETTINGS };
  if (r.level !== undefined) {
    if (!LEVEL_CHOICES.includes(r.level as LevelChoice)) bad(`${key}.level`, `must be one of ${LEVEL_CHOICES.join(', ')}`);
    s.level = r.level as LevelChoice;
  }
  if (r.top !== undefined) {
    if (typeof r.top !== 'number' || !Number.isInteger(r.top) || r.top < 1 || r.top > 1000) bad(`${key}.top`, 'must be a whole number from 1 to 1000');
    s.top = r.top as number;
  }
  if (r.model !== undefined) {
    if (typeof r.model !== 'string' || !(r.model === 'none' || r.model === 'default' || models.has(r.model))) {
      bad(`${key}.model`, `must be none, default${models.size > 0 ? ` or a name of models (${[...models.keys()].join(', ')})` : ' or a name under models'}`);
    }
    s.model = r.model as string;
  }
  return s;
}

function record(v: unknown, key: string, bad: (k: string, w: string) => never): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return bad(key, 'must be an object');
  return v as Record<string, unknown>;
}

function knownKeys(r: Record<string, unknown>, known: readonly string[], prefix: string, bad: (k: string, w: string) => never): void {
  for (const k of Object.keys(r)) if (!known.includes(k)) bad(`${prefix}${k}`, `unknown key (known: ${known.join(', ')})`);
}
