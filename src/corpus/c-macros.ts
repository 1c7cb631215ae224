/**
 * A copy of C/C++ source that tree-sitter can parse where the preprocessor hides the syntax:
 * `class EXPORT Gadget {…}`, `FMT_API void f();`, `int size() const FMT_NOEXCEPT {`, a line
 * `FMT_BEGIN_NAMESPACE`, and function headers split over `#ifdef … #else … #endif` branches.
 * Tree-sitter does not run the preprocessor, so without this such classes yield no unit and the
 * functions after them are lost or misnamed.
 *
 * Everything masked is replaced by spaces (line breaks kept), so every line, column and string
 * index of the copy is that of the original: units found in the copy are cut from the original.
 */

/** An all-caps identifier of at least two characters (`FMT_API`, `JV_ATTR`, `EXPORT`). */
const MACRO = String.raw`[A-Z][A-Z0-9_]*[A-Z0-9]`;

/** Masked text: every character but line breaks replaced by a space. */
const blank = (s: string): string => s.replace(/[^\n]/g, ' ');

/** `class EXPORT Gadget`, `struct FMT_API S final :` → the macro masked. */
const CLASS_MACRO = new RegExp(String.raw`(\b(?:class|struct|union)\s+)(${MACRO}(?:\s*\([^()\n]*\))?)(?=\s+[A-Za-z_]\w*(?:\s*<[^;{}]*>)?\s*(?:final\b)?\s*[:{\n])`, 'g');

/** At a line start, after storage-class words: `FMT_API void f(`, `static JV_ATTR int g(`. */
const LEADING_MACROS = new RegExp(String.raw`^(\s*(?:(?:static|inline|extern|virtual|explicit|constexpr|friend)\s+)*)((?:${MACRO}\s+)+)(?=[A-Za-z_])`, 'gm');

/** After a parameter list: `) const FMT_NOEXCEPT {`, `) JV_PRINTF_LIKE(1, 2);`. */
const TRAILING_MACRO = new RegExp(String.raw`(\)\s*(?:const\s*)?(?:noexcept\s*)?)(${MACRO}(?:\s*\([^()\n]*\))?)(?=\s*(?:[{;:=]|->|override\b|final\b|$))`, 'gm');

/** A line that is only a macro: `FMT_BEGIN_NAMESPACE`, `Q_OBJECT`. */
const MACRO_LINE = new RegExp(String.raw`^[ \t]*${MACRO}[ \t]*$`, 'gm');

/**
 * Only the first branch of each `#if`/`#ifdef`/`#ifndef` (the `#else` branch of `#if 0`), the
 * conditional lines themselves masked: so `#ifdef WIN32 int umain(…) { #else int main(…) { #endif`
 * leaves one function header. Continued directive lines (`\` at the end) are masked whole.
 */
function firstBranches(text: string): string {
  const original = text.split('\n');
  const lines = original.slice();
  // per open conditional: whether one of its branches is kept already, and whether this one is dropped
  const open: { kept: boolean; dropping: boolean }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(.*)$/.exec(lines[i]);
    const dropping = open.some((o) => o.dropping);
    if (m) {
      const top = open[open.length - 1];
      if (m[1].startsWith('if')) {
        const never = m[1] === 'if' && /^\s*0\s*(\/[/*].*)?$/.test(m[2]);
        open.push({ kept: !never, dropping: never });
      } else if (m[1] === 'endif') {
        open.pop();
      } else if (top) {
        top.dropping = top.kept;
        top.kept = true;
      }
    }
    if (!m && !dropping) continue;
    lines[i] = blank(lines[i]);
    while (m && /\\\s*$/.test(original[i]) && i + 1 < lines.length) lines[++i] = blank(lines[i]);
  }
  return lines.join('\n');
}

/**
 * The C/C++ source with preprocessor constructs masked (see the file comment); same length and
 * line breaks as `text`.
 */
export function maskCMacros(text: string): string {
  return firstBranches(text)
    .replace(CLASS_MACRO, (_, before: string, macro: string) => before + blank(macro))
    .replace(LEADING_MACROS, (_, before: string, macros: string) => before + blank(macros))
    .replace(TRAILING_MACRO, (_, before: string, macro: string) => before + blank(macro))
    .replace(MACRO_LINE, blank);
}
