/**
 * Splitting one identifier into its sub-tokens (camelCase, PascalCase, ACRONYMWord, snake_case,
 * digits), exactly like the regular expression of `ref_eval.py`
 * (`[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+`, applied with `findall`), but written as a
 * character loop so that no regular expression runs per word.
 */

/** Char-code classes for ASCII: 1 = upper, 2 = lower, 3 = digit, 4 = underscore, 0 = other. */
const CLASS = new Uint8Array(128);
for (let c = 65; c <= 90; c++) CLASS[c] = 1;
for (let c = 97; c <= 122; c++) CLASS[c] = 2;
for (let c = 48; c <= 57; c++) CLASS[c] = 3;
CLASS[95] = 4;

/** Class of char code `c`: 1 upper, 2 lower, 3 digit, 4 `_`, 0 anything else (all non-ASCII). */
export function charClass(c: number): number {
  return c < 128 ? CLASS[c] : 0;
}

/**
 * Appends the parts of `word` to `out`, in their original case.
 *
 * Parts are maximal runs found left to right, as `re.findall` with the pattern above:
 * an upper-case run followed by a lower-case letter gives up its last capital to the next part
 * (`HTTPServer` → `HTTP`, `Server`); a capital followed by lower-case letters is one part
 * (`Server`); a lone upper-case run is one part (`HTTP`); digits form their own parts (`utf8` →
 * `utf`, `8`). Every other character (`_`, punctuation, non-ASCII letters) only separates.
 * Linear in `word.length`.
 */
export function splitIdentifierInto(word: string, out: string[]): void {
  const n = word.length;
  let i = 0;
  while (i < n) {
    const k = charClass(word.charCodeAt(i));
    if (k === 1) {
      let j = i + 1;
      while (j < n && charClass(word.charCodeAt(j)) === 1) j++;
      if (j < n && charClass(word.charCodeAt(j)) === 2) {
        if (j - i >= 2) {
          // `[A-Z]+(?=[A-Z][a-z])`: the run minus its last capital.
          out.push(word.slice(i, j - 1));
          i = j - 1;
          continue;
        }
        // `[A-Z]?[a-z]+`: one capital and the lower-case run after it.
        let e = j + 1;
        while (e < n && charClass(word.charCodeAt(e)) === 2) e++;
        out.push(word.slice(i, e));
        i = e;
        continue;
      }
      out.push(word.slice(i, j)); // `[A-Z]+`
      i = j;
    } else if (k === 2 || k === 3) {
      let j = i + 1;
      while (j < n && charClass(word.charCodeAt(j)) === k) j++;
      out.push(word.slice(i, j));
      i = j;
    } else {
      i++;
    }
  }
}

/**
 * The parts of an identifier, original case kept: `splitIdentifier('parseHTTPServer_v2')` →
 * `['parse', 'HTTP', 'Server', 'v', '2']`; `splitIdentifier('__init__')` → `['init']`;
 * `splitIdentifier('HTTP')` → `['HTTP']`. Never throws; `''` gives `[]`.
 * Follows ref_eval.py's `_PART` regular expression (see the module comment).
 */
export function splitIdentifier(word: string): string[] {
  const out: string[] = [];
  splitIdentifierInto(word, out);
  return out;
}
