/**
 * Whether the process `pid` of this host exists: signal 0 reaches it, or it is another user's
 * (EPERM). A pid reused since may name another program: callers bound it by a file's age.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
