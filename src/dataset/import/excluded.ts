/**
 * Repositories no training set may hold (the leakage check of the training-set importers): they are the evaluation sets, or kept for later checks. One list, with its sources:
 *
 * - SWE-bench (Lite and full test split): the 12 repositories of the test split
 *   (princeton-nlp/SWE-bench; the data folder's `swebench-lite/`).
 * - Multi-SWE-bench (ByteDance-Seed, arXiv 2504.02605): the repository table of its dataset card
 *   (C, C++, Go, Java, JS, Rust, TS) and the Java repositories it took over from SWE-bench-java
 *   (arXiv 2408.14354); the data folder's `multi-swe/` holds 15 of them. Also gin-gonic/gin and
 *   typescript-eslint/typescript-eslint, named with them in the task that asked for this list.
 * - Kept for later checks: Apache Wicket, Commons Math, Commons Lang; and the Tomcat and Maven
 *   issues used in evaluation (the data folder's `ye2014/` and `jira/`): the whole repositories.
 *
 * Names are compared case-insensitively (GitHub's rule), and Multi-SWE-bench's `jackson-*` is a
 * prefix: every FasterXML jackson repository is out.
 */

/** The 12 repositories of SWE-bench's test split. */
const SWEBENCH = [
  'astropy/astropy', 'django/django', 'matplotlib/matplotlib', 'mwaskom/seaborn', 'pallets/flask', 'psf/requests',
  'pydata/xarray', 'pylint-dev/pylint', 'pytest-dev/pytest', 'scikit-learn/scikit-learn', 'sphinx-doc/sphinx', 'sympy/sympy',
];

/** Multi-SWE-bench (its dataset card's table, plus the SWE-bench-java repositories). */
const MULTI_SWE_BENCH = [
  // C
  'facebook/zstd', 'jqlang/jq', 'ponylang/ponyc',
  // C++
  'catchorg/Catch2', 'fmtlib/fmt', 'nlohmann/json', 'simdjson/simdjson', 'yhirose/cpp-httplib',
  // Go
  'cli/cli', 'grpc/grpc-go', 'zeromicro/go-zero', 'gin-gonic/gin',
  // Java
  'alibaba/fastjson2', 'elastic/logstash', 'mockito/mockito', 'apache/dubbo', 'google/gson',
  'GoogleContainerTools/jib', 'FasterXML/jackson-core', 'FasterXML/jackson-databind', 'FasterXML/jackson-dataformat-xml',
  // JS
  'anuraghazra/github-readme-stats', 'axios/axios', 'expressjs/express', 'iamkun/dayjs', 'Kong/insomnia', 'sveltejs/svelte',
  // Rust
  'BurntSushi/ripgrep', 'clap-rs/clap', 'nushell/nushell', 'serde-rs/serde', 'sharkdp/bat', 'sharkdp/fd',
  'rayon-rs/rayon', 'tokio-rs/bytes', 'tokio-rs/tokio', 'tokio-rs/tracing',
  // TS
  'darkreader/darkreader', 'mui/material-ui', 'vuejs/core', 'typescript-eslint/typescript-eslint',
];

/** Kept for later checks, and the evaluation sets of Tomcat and Maven. */
const HELD_OUT = [
  'apache/wicket', 'apache/commons-math', 'apache/commons-lang', 'apache/tomcat', 'apache/maven',
];

/** Every excluded `owner/name`, lower-cased. */
const EXCLUDED = new Set([...SWEBENCH, ...MULTI_SWE_BENCH, ...HELD_OUT].map((r) => r.toLowerCase()));

/** Excluded by owner and name prefix (Multi-SWE-bench's `jackson-*`). */
const EXCLUDED_PREFIXES = ['fasterxml/jackson'];

/**
 * Why `ownerName` (GitHub `owner/name`) may not be in a training set, or null when it may.
 * Case-insensitive; a `.git` suffix is ignored.
 */
export function excludedRepository(ownerName: string): string | null {
  const key = ownerName.toLowerCase().replace(/\.git$/, '');
  if (SWEBENCH.some((r) => r.toLowerCase() === key)) return `${ownerName} is a SWE-bench repository`;
  if (EXCLUDED_PREFIXES.some((p) => key.startsWith(p)) || MULTI_SWE_BENCH.some((r) => r.toLowerCase() === key)) {
    return `${ownerName} is a Multi-SWE-bench repository`;
  }
  if (EXCLUDED.has(key)) return `${ownerName} is kept out for evaluation (Wicket, Commons Math/Lang, Tomcat, Maven)`;
  return null;
}

/** The number of excluded repositories named (prefixes not expanded). */
export const EXCLUDED_COUNT = EXCLUDED.size;
