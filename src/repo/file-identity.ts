/**
 * The identity of a file's content as git's own stores check it (`stat_validity` in git's
 * refs/packed-backend.c): device, inode, size, change and modification times in nanoseconds. Git
 * replaces a `packed-refs` file or a config by renaming a new one over it and writes a pack and its
 * index once, so a file whose identity is unchanged holds what it held.
 */
import { statSync, type BigIntStats } from 'node:fs';

/** The identity of the file `stat` describes (a `stat`/`fstat` with `{ bigint: true }`). */
export function fileIdentity(stat: BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.ctimeNs}:${stat.mtimeNs}`;
}

/** Answers kept at most by {@link rememberedOfFile} (each a few ids; a service asks for a handful of commits). */
const MAX_FILE_ANSWERS = 1024;
/** Answers read from files, by file and question, with the identity of the file they were read from. */
const fileAnswers = new Map<string, { identity: string; answer: unknown }>();

/**
 * `read(file, question)`, or the answer it gave for the same question while `file` keeps its
 * {@link fileIdentity}: for a process asking the same of a git directory again and again (a warm
 * service). At most {@link MAX_FILE_ANSWERS} answers are kept (then all are dropped).
 *
 * @throws as `read`, and the fs error when `file` cannot be stat'ed.
 */
export function rememberedOfFile<Q extends string | number, A>(file: string, question: Q, read: (file: string, question: Q) => A): A {
  const identity = fileIdentity(statSync(file, { bigint: true }));
  const key = `${file}\0${question}`;
  const known = fileAnswers.get(key);
  if (known?.identity === identity) return known.answer as A;
  const answer = read(file, question);
  if (fileAnswers.size >= MAX_FILE_ANSWERS) fileAnswers.clear();
  fileAnswers.set(key, { identity, answer });
  return answer;
}
