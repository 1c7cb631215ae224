/**
 * Where the bench scripts look for the public data sets and the repository mirrors when no flag
 * names them:
 *
 * - `ISSUELOC_DATA`: the data folder (`swebench-lite/`, `locbench/`, `jira/`, `ye2014/`);
 *   default `../shared/data`, relative to the working folder (the scripts run from the repository
 *   root, with the project's shared data folder beside the checkout);
 * - `ISSUELOC_MIRRORS`: the folder of bare mirrors (`OWNER+NAME/repo`, or the SWE-bench mirror
 *   `swe-bench+OWNER__NAME/repo`); default `/work/.mirror`, the development machine's folder.
 *
 * Each script's `--data`/`--mirrors` (or `--repo`, `--issues`) flag overrides these.
 */
import { join } from 'node:path';

/** The data folder: `ISSUELOC_DATA`, else `../shared/data`. */
export const DATA_DIR = process.env.ISSUELOC_DATA ?? '../shared/data';

/** The mirrors folder: `ISSUELOC_MIRRORS`, else `/work/.mirror`. */
export const MIRRORS_DIR = process.env.ISSUELOC_MIRRORS ?? '/work/.mirror';

/** A file of the data folder, e.g. `dataFile('swebench-lite/swebench_lite.jsonl')`. */
export function dataFile(relative: string): string {
  return join(DATA_DIR, relative);
}

/** The bare git directory of mirror folder `dir` (e.g. `apache+maven`). */
export function mirrorRepo(dir: string): string {
  return join(MIRRORS_DIR, dir, 'repo');
}
