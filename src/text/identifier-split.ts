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

/** Parts shorter than this can be fragments ({@link fragmentKinds}). */
export const MIN_PART_LENGTH = 3;

/** {@link fragmentKinds}: a short part at a letter–digit boundary (`BM25F` → `BM`, `25`). */
export const DIGIT_FRAGMENT = 1;
/** {@link fragmentKinds}: a syllable of a mixed-case acronym (`LaTeX` → `La`, `Te`, `X`). */
export const ACRONYM_FRAGMENT = 2;

/**
 * Which parts of one word are fragments rather than words: given the parts of one run of
 * `[A-Za-z0-9]` in order (as {@link splitIdentifierInto} gives them for a word without inner
 * `_`), `kinds[i]` is 0 for a word and otherwise holds the bits of what makes part `i` (shorter
 * than {@link MIN_PART_LENGTH} characters) a fragment:
 * - {@link DIGIT_FRAGMENT}: it touches a letter–digit boundary, a digit part next to letters or a
 *   letter part next to digits (`BM25F` → `BM`, `25`; `md5` → `md`; `int64` → `64`);
 * - {@link ACRONYM_FRAGMENT}: it lies in a run of adjacent short parts that starts with a capital
 *   and a lower-case letter and holds a part of capitals after it: the syllables of a mixed-case
 *   acronym (`LaTeX` → `La`, `Te`, `X`; `PyPI` → `Py`, `PI`; `NaN` → `Na`, `N`).
 *
 * Ordinary short camelCase parts are words, not fragments: `toDB` → `DB`, `isOk` → `is`, `Ok`,
 * `fpToString` → `fp`, `To`, `findById` → `By`, `Id`, `IoError` → `Io`, `NumPy` → `Py` are all 0.
 * A word of one part has no fragments.
 */
export function fragmentKinds(parts: readonly string[]): number[] {
  const n = parts.length;
  const kinds = new Array<number>(n).fill(0);
  if (n < 2) return kinds;
  const isDigits = (p: string) => charClass(p.charCodeAt(0)) === 3;
  for (let i = 0; i < n; i++) {
    const p = parts[i];
    if (p.length >= MIN_PART_LENGTH) continue;
    const d = isDigits(p);
    if ((i > 0 && isDigits(parts[i - 1]) !== d) || (i + 1 < n && isDigits(parts[i + 1]) !== d)) kinds[i] |= DIGIT_FRAGMENT;
  }
  for (let i = 0; i < n;) {
    if (parts[i].length >= MIN_PART_LENGTH) { i++; continue; }
    const first = parts[i];
    const titled = first.length === 2 && charClass(first.charCodeAt(0)) === 1 && charClass(first.charCodeAt(1)) === 2;
    let j = i + 1;
    let capitals = false;
    while (j < n && parts[j].length < MIN_PART_LENGTH) {
      if (charClass(parts[j].charCodeAt(parts[j].length - 1)) === 1) capitals = true;
      j++;
    }
    if (titled && capitals) for (let k = i; k < j; k++) kinds[k] |= ACRONYM_FRAGMENT;
    i = j;
  }
  return kinds;
}
