// A generated minified JavaScript file: many functions, classes and methods on ONE line, as a
// bundler writes them (no fetched code). Used by test/corpus/minified.test.ts and bench/minified.ts.

/**
 * One line of minified JavaScript of about `bytes` bytes (never more), no newline: a repeating
 * group of a function declaration, a function expression, an arrow function and a class with two
 * methods, each holding words of its own (`w<i>a`, `w<i>b` …), so every unit's text is distinct.
 */
export function minifiedJs(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const group =
      `function f${i}(a,b){var c=a+b;return c*${i}+"w${i}a"}` +
      `var g${i}=function(x){return x.map(function(y){return y+"w${i}b"})};` +
      `const h${i}=p=>p*${i}+"w${i}c";` +
      `class K${i}{m${i}(a){return this.v+a+"w${i}d"}n${i}(){return"w${i}e"}}`;
    if (size + group.length > bytes) break;
    parts.push(group);
    size += group.length;
  }
  return parts.join('');
}
