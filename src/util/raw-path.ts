/**
 * Paths whose bytes are not UTF-8. Node decodes the command line and text files as UTF-8 and
 * replaces what is not with U+FFFD, so such a path cannot be opened by its decoded name: these
 * find its bytes again (the command line from /proc/self/cmdline) and name it as git does.
 */
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';

const C_ESCAPES: Record<number, string> = { 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r', 34: '"', 92: '\\' };

/**
 * A path's bytes as git prints them with `core.quotePath` on: as is when every byte is printable
 * ASCII other than `"` and `\`, else in double quotes with C escapes (`\t`, `\"`, `\\` …) and
 * every other byte outside printable ASCII as three octal digits (`"caf\303\251"`).
 */
export function gitQuotePath(bytes: Buffer): string {
  if (bytes.every((b) => b >= 0x20 && b < 0x7f && b !== 34 && b !== 92)) return bytes.toString('latin1');
  let out = '"';
  for (const b of bytes) {
    if (C_ESCAPES[b]) out += `\\${C_ESCAPES[b]}`;
    else if (b < 0x20 || b >= 0x7f) out += `\\${b.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(b);
  }
  return `${out}"`;
}

/** The arguments after the script as bytes (Linux: /proc/self/cmdline), or undefined where that cannot be read. */
function rawArguments(): Buffer[] | undefined {
  let cmdline: Buffer;
  try {
    cmdline = readFileSync('/proc/self/cmdline');
  } catch {
    return undefined;
  }
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < cmdline.length; i++) {
    if (cmdline[i] === 0) {
      parts.push(cmdline.subarray(start, i));
      start = i + 1;
    }
  }
  const n = process.argv.length - 2;
  return n >= 0 && parts.length >= n ? parts.slice(parts.length - n) : undefined;
}

/**
 * The bytes of the command-line argument that Node decoded as `value`, when they are not UTF-8
 * (`value` holds U+FFFD then); undefined for a UTF-8 value. An argument `--opt=VALUE` counts.
 */
export function nonUtf8Argument(value: string): Buffer | undefined {
  if (!value.includes('\uFFFD')) return undefined;
  for (const raw of rawArguments() ?? []) {
    if (isUtf8(raw)) continue;
    const text = raw.toString('utf8');
    if (text === value) return raw;
    const eq = raw.indexOf(0x3d); // --opt=VALUE
    if (eq > 0 && text.endsWith(`=${value}`) && raw.subarray(eq + 1).toString('utf8') === value) return raw.subarray(eq + 1);
  }
  return undefined;
}
