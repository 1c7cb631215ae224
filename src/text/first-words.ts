/**
 * Cutting a text after a number of words, as the body field of the code index and the message
 * words of the change history both do.
 */

/** `text` up to the end of its `n`-th whitespace-separated word (all of it when shorter). */
export function firstWords(text: string, n: number): string {
  const word = /\S+/g;
  let count = 0;
  while (word.exec(text) !== null) {
    if (++count === n) return text.slice(0, word.lastIndex);
  }
  return text;
}
