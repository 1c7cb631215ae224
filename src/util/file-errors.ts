/**
 * One wording for why an input file cannot be read, across every file the commands read (an
 * issue file, a model, a config, a list): `cannot read model x.json: no such file`.
 */

/**
 * Why a file could not be read, from the fs error: `no such file`, `a folder, not a file`,
 * `permission denied`, `not a folder on the way` (ENOTDIR); another error's code, else its message.
 */
export function whyUnreadable(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT': return 'no such file';
    case 'EISDIR': return 'a folder, not a file';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'ENOTDIR': return 'not a folder on the way';
    default: return code ?? (e instanceof Error ? e.message : String(e));
  }
}
