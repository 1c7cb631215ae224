/**
 * Tests parse tiny fixtures: V8 compiles the tree-sitter grammars' WebAssembly with its baseline
 * compiler (Liftoff) only. By default V8 also recompiles the hot lexer and parser functions with
 * TurboFan, ≈ 1-2 s CPU per grammar and process (grammar-cache-key: 7.2 → 1.1 s), which a parse of
 * a few lines never pays back. Same code, same results: only the compiler tier differs.
 *
 * Importing this module sets it for this process and its worker threads (the fixture builders
 * import it, so every test that builds a repository gets it); {@link BASELINE_WASM_ARGS} are the
 * node options that set it for a CLI a test starts where the executable's start-up and flags are
 * not what is under test (the packaged executable's tests start it without them).
 */
import { setFlagsFromString } from 'node:v8';

/** Node options for a started CLI: WebAssembly compiled by the baseline compiler only. */
export const BASELINE_WASM_ARGS: readonly string[] = ['--liftoff-only'];

setFlagsFromString('--liftoff-only');
