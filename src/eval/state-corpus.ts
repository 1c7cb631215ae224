/**
 * Builds the file corpus of an a-priori state from per-blob term counts kept in memory across
 * issues: consecutive states share most files, so each blob is read and tokenized once per run
 * and every later state only concatenates cached typed arrays (no rebuild from scratch per
 * issue). File-name bags are cached by name alike.
 *
 * Blobs not used by the last `keepStates` corpora are evicted every `keepStates` corpora, so
 * memory follows the working set of nearby states, not the whole history.
 */
import { isBinary, decodeSource } from '../corpus/decode.js';
import type { GitRepo } from '../repo/git.js';
import { bagOf, FileCorpusBuilder, Vocabulary, type FileCorpus, type TermBag } from '../retrieve/file-retrievers/corpus.js';
import type { Tokenizer } from '../text/tokenize.js';
import type { StateFile } from './state-files.js';
import { fileNameOf } from './text-settings.js';

/** Files of a state left out of its corpus, by reason. */
export interface SkippedFiles {
  /** Blob has a NUL byte in its first 8000 bytes. */
  binary: number;
  /** Blob missing from the object store (fetched snapshots lack blobs of 4 MiB or more). */
  missing: number;
  /** Larger than `maxFileBytes`. */
  tooLarge: number;
}

/** Time spent, milliseconds. */
export interface CorpusTimings {
  /** Reading blobs from git. */
  readMillis: number;
  /** Decoding and tokenizing blobs. */
  tokenizeMillis: number;
  /** Assembling corpora from cached bags. */
  assembleMillis: number;
}

interface CachedBlob {
  bag: TermBag | null;
  used: number;
}

/** Options of {@link StateCorpusBuilder}. */
export interface StateCorpusOptions {
  /** Files larger than this many bytes are left out; default: no limit. */
  maxFileBytes?: number;
  /** Eviction horizon in corpora (see the module comment); default 64. */
  keepStates?: number;
}

/** Corpus builder with the blob cache (see the module comment). */
export class StateCorpusBuilder {
  readonly vocabulary = new Vocabulary();
  readonly timings: CorpusTimings = { readMillis: 0, tokenizeMillis: 0, assembleMillis: 0 };
  /** Blobs read from git and tokenized, and blob look-ups answered from the cache. */
  readonly counters = { blobsRead: 0, blobHits: 0 };
  private readonly blobs = new Map<string, CachedBlob>();
  private readonly names = new Map<string, TermBag>();
  /** Why a cached blob has no bag. */
  private readonly reasons = new Map<string, keyof SkippedFiles>();
  private generation = 0;
  private readonly maxBytes: number;
  private readonly keep: number;

  constructor(private readonly repo: GitRepo, private readonly tokenizer: Tokenizer, options: StateCorpusOptions = {}) {
    this.maxBytes = options.maxFileBytes ?? Number.POSITIVE_INFINITY;
    this.keep = Math.max(1, options.keepStates ?? 64);
  }

  /**
   * The corpus of `files` (the candidate files of one state, in the order they should rank on
   * ties), with each document's key = `path` + NUL + blob.
   * @returns the corpus and the files left out (binary, missing, too large).
   */
  async corpus(files: readonly StateFile[]): Promise<{ corpus: FileCorpus; skipped: SkippedFiles }> {
    this.generation++;
    const g = this.generation;
    const missing = new Set<string>();
    for (const f of files) {
      const c = this.blobs.get(f.blob);
      if (c) {
        c.used = g;
        this.counters.blobHits++;
      } else missing.add(f.blob);
    }
    if (missing.size > 0) await this.load([...missing], g);
    const t0 = performance.now();
    const skipped: SkippedFiles = { binary: 0, missing: 0, tooLarge: 0 };
    const b = new FileCorpusBuilder(this.vocabulary);
    for (const f of files) {
      const c = this.blobs.get(f.blob) as CachedBlob;
      if (c.bag === null) {
        skipped[this.reasonOf(f.blob)]++;
        continue;
      }
      const name = fileNameOf(f.path);
      let nb = this.names.get(name);
      if (!nb) this.names.set(name, (nb = bagOf(this.tokenizer.tokenize(name), this.vocabulary)));
      b.add(f.path, `${f.path}\0${f.blob}`, [nb, c.bag]);
    }
    const corpus = b.build();
    this.timings.assembleMillis += performance.now() - t0;
    if (g % this.keep === 0) this.evict(g - this.keep);
    return { corpus, skipped };
  }

  private reasonOf(blob: string): keyof SkippedFiles {
    return this.reasons.get(blob) ?? 'missing';
  }

  private async load(blobs: readonly string[], g: number): Promise<void> {
    let t = performance.now();
    for await (const [sha, buf] of this.repo.readBlobs(blobs)) {
      const now = performance.now();
      this.timings.readMillis += now - t;
      this.counters.blobsRead++;
      let bag: TermBag | null = null;
      if (buf === null) this.reasons.set(sha, 'missing');
      else if (buf.length > this.maxBytes) this.reasons.set(sha, 'tooLarge');
      else if (isBinary(buf)) this.reasons.set(sha, 'binary');
      else bag = bagOf(this.tokenizer.tokenize(decodeSource(buf)), this.vocabulary);
      this.blobs.set(sha, { bag, used: g });
      t = performance.now();
      this.timings.tokenizeMillis += t - now;
    }
  }

  private evict(before: number): void {
    for (const [sha, c] of this.blobs) {
      if (c.used <= before) {
        this.blobs.delete(sha);
        this.reasons.delete(sha);
      }
    }
  }

  /** Blobs held in the cache now. */
  get cachedBlobs(): number {
    return this.blobs.size;
  }
}
