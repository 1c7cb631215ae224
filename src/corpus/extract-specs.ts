import type { Node } from 'web-tree-sitter';
import { languageOf, type Language } from './languages.js';
import { maskCMacros } from './c-macros.js';

/** Name of a node as a unit or qualifier; null = this node is not one (it is skipped whole). */
export type NameOf = (node: Node) => string | null;

/**
 * What a tree-sitter node type is, met at module or class level (function bodies are never
 * entered):
 * - `class`: a class-like unit (class, interface, enum, record, struct, trait, module…); its
 *   name qualifies everything found inside it;
 * - `function`: a function or method unit; what is inside belongs to it (nested functions are
 *   part of their parent, as in the SWE-bench protocol);
 * - `scope`: only a qualifier, no unit (C++ namespace, Rust `impl`/`mod`, TS namespace); name ''
 *   means look inside without qualifying; a `namespace` scope (C++ `namespace`, Rust inline `mod`,
 *   TS `namespace`) qualifies names but is no module: the module of what is inside is its
 *   top-level class or function (`fmt.Formatter`, not `fmt`), an `impl` block is its type's;
 * - `descend`: look inside (bodies, `if`/`try` blocks at module level, preprocessor blocks);
 * - `wrap`: look inside; a unit directly inside starts where this node starts (Python decorators,
 *   `export`, C++ `template<…>`, `const f = () => …`);
 * - `pick`: one of the above chosen by the node itself (null: skip it), for node types that are a
 *   function or a scope by their value (`const f = () => …` vs `const api = { f() {} }`).
 */
export type Role =
  | { as: 'class'; name?: NameOf }
  | { as: 'function'; name?: NameOf }
  | { as: 'scope'; name: NameOf; namespace?: boolean }
  | { as: 'descend' }
  | { as: 'wrap' }
  | { as: 'pick'; pick: (node: Node) => Exclude<Role, { as: 'pick' }> | null };

/** How the units of one language are found in its tree-sitter tree. */
export interface LanguageSpec {
  /** Grammar file: `tree-sitter-<grammar>.wasm` of the tree-sitter-wasms package (copied to action/bundle/grammars by action/build.mjs). */
  grammar: string;
  /** Name of this extractor when it is not the grammar's (two specs of one grammar: C++ headers). */
  id?: string;
  /**
   * Version of this language's units, part of its blob cache entries' keys (`extractorKey`): bump
   * when the units of one language change, so that only its blobs are parsed again (a change for
   * every language bumps `BLOB_FORMAT_VERSION`). Absent: 1. Rust 2: test-only items give no units.
   */
  version?: number;
  /**
   * A same-length copy of a text whose parse has errors, to parse instead (C/C++: preprocessor
   * macros masked); its units are taken when they are more.
   */
  mask?: (text: string) => string;
  roles: Readonly<Record<string, Role>>;
  /** Node types that, right before a unit, belong to its span (Rust `#[…]` attribute items). */
  leading?: readonly string[];
  /**
   * Whether an item with these leading nodes (their text, in order) is test-only code: no unit,
   * nor anything inside it (Rust `#[cfg(test)] mod tests { … }`, `#[test] fn …`).
   */
  testOnly?: (leading: readonly string[]) => boolean;
  /**
   * End a unit at its last token that is not a comment (Python: matches `ast`'s `end_lineno`,
   * where tree-sitter may let a block run on over trailing comments).
   */
  trimTrailingComments?: boolean;
}

const CLASS: Role = { as: 'class' };
const FUNCTION: Role = { as: 'function' };
const DESCEND: Role = { as: 'descend' };
const WRAP: Role = { as: 'wrap' };

function roles(groups: [Role, string[]][]): Record<string, Role> {
  const out: Record<string, Role> = {};
  for (const [role, types] of groups) for (const t of types) out[t] = role;
  return out;
}

const field = (node: Node, name: string): Node | null => node.childForFieldName(name);

/** First named child of one of `types`. */
function childOfType(node: Node, types: readonly string[]): Node | null {
  for (const c of node.namedChildren) if (c && types.includes(c.type)) return c;
  return null;
}

/** `A::B`, `A.B`, `a\\b` → `A.B`; whitespace and generic arguments dropped. */
function dotted(text: string): string {
  return text.replace(/<[^<>]*(<[^<>]*>[^<>]*)*>/g, '').replace(/\s+/g, '').replace(/::|\\/g, '.').replace(/^\.+/, '');
}

/** A type as a qualifier: pointers, references, generic arguments and module paths dropped. */
function bareType(text: string): string {
  const t = text.replace(/[[<].*$/s, '').replace(/[\s*&()]+/g, '').replace(/^(mut|dyn|const)(?=[A-Z_a-z])/, '');
  const parts = t.split(/::|\./);
  return parts[parts.length - 1];
}

// ------------------------------------------------------------------------------ C and C++

/** Name of a C/C++ function from its declarator chain: `Foo::bar` → `Foo.bar`, `~Foo`, `operator=`. */
function cDeclaratorName(node: Node): string | null {
  let d: Node | null = field(node, 'declarator');
  for (let guard = 0; d && guard < 16; guard++) {
    switch (d.type) {
      case 'function_declarator':
      case 'pointer_declarator':
      case 'reference_declarator':
      case 'parenthesized_declarator':
      case 'attributed_declarator':
        d = field(d, 'declarator') ?? d.namedChildren.find((c) => c !== null && c.type.endsWith('declarator')) ?? null;
        break;
      case 'identifier':
      case 'field_identifier':
      case 'destructor_name':
      case 'operator_name':
        return d.text.replace(/\s+/g, '');
      case 'qualified_identifier':
      case 'template_function':
        return dotted(d.text);
      default:
        return null;
    }
  }
  return null;
}

/**
 * Name of a function a declaration declares (`void f(int);`, `Foo();` in a class body,
 * `static Foo& get();`), as {@link cDeclaratorName} names definitions; null for anything else
 * (variables, fields, function pointers `void (*cb)(int);`).
 */
function cDeclaredFunctionName(node: Node): string | null {
  let d: Node | null = field(node, 'declarator');
  while (d && (d.type === 'pointer_declarator' || d.type === 'reference_declarator')) d = field(d, 'declarator') ?? d.namedChildren.find((c) => c !== null && c.type.endsWith('declarator')) ?? null;
  if (!d || d.type !== 'function_declarator') return null;
  const inner = field(d, 'declarator');
  return inner && inner.type !== 'parenthesized_declarator' ? cDeclaratorName(node) : null;
}

/** Struct/class/union with a body (a definition, not a mere use of the type). */
function cRecordName(node: Node): string | null {
  const name = field(node, 'name');
  return name && field(node, 'body') ? dotted(name.text) : null;
}

/** C++ namespace: `a::b` → `a.b`; anonymous → '' (look inside, no qualifier). */
function namespaceName(node: Node): string {
  const name = field(node, 'name');
  return name ? dotted(name.text) : '';
}

const C_BLOCKS = ['translation_unit', 'preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif', 'preproc_elifdef', 'linkage_specification', 'declaration_list'];

/** `struct S {…} s;`, `typedef struct S {…} S_t;`, a struct member of a class: the struct inside. */
const C_RECORD_HOLDERS = ['declaration', 'type_definition', 'field_declaration'];

const C: LanguageSpec = {
  grammar: 'c',
  roles: {
    ...roles([[DESCEND, C_BLOCKS], [WRAP, C_RECORD_HOLDERS]]),
    function_definition: { as: 'function', name: cDeclaratorName },
    struct_specifier: { as: 'class', name: cRecordName },
    union_specifier: { as: 'class', name: cRecordName },
  },
  mask: maskCMacros,
};

const CPP: LanguageSpec = {
  grammar: 'cpp',
  roles: {
    ...roles([[DESCEND, [...C_BLOCKS, 'field_declaration_list']], [WRAP, ['template_declaration', ...C_RECORD_HOLDERS]]]),
    function_definition: { as: 'function', name: cDeclaratorName },
    class_specifier: { as: 'class', name: cRecordName },
    struct_specifier: { as: 'class', name: cRecordName },
    union_specifier: { as: 'class', name: cRecordName },
    namespace_definition: { as: 'scope', name: namespaceName, namespace: true },
  },
  mask: maskCMacros,
};

/** A function declared, else a wrap (a struct defined in it): in headers, declarations are units. */
const DECLARATION: Role = {
  as: 'pick',
  pick: (n) => {
    const name = cDeclaredFunctionName(n);
    return name === null ? WRAP : { as: 'function', name: () => name };
  },
};

/**
 * C and C++ headers: as C++, and each function declared (`void f(int);`, a method declared in a
 * class body) is a function unit too, named as its definition in the `.c`/`.cc` file is
 * (`ns.Foo.bar` in the header and for `void ns::Foo::bar() {…}`), so a name reaches both.
 */
const CPP_HEADER: LanguageSpec = {
  ...CPP,
  id: 'cpp-header',
  roles: { ...CPP.roles, declaration: DECLARATION, field_declaration: DECLARATION },
};

// ------------------------------------------------------------------------------ Python

const PYTHON: LanguageSpec = {
  grammar: 'python',
  roles: roles([
    [CLASS, ['class_definition']],
    [FUNCTION, ['function_definition']],
    [WRAP, ['decorated_definition']],
    // ref_eval.py `_BLOCKS`: if/try/with/for/while (and their else/except/finally parts)
    [DESCEND, ['module', 'block', 'if_statement', 'elif_clause', 'else_clause', 'try_statement',
      'except_clause', 'except_group_clause', 'finally_clause', 'with_statement', 'for_statement',
      'while_statement']],
  ]),
  trimTrailingComments: true,
};

// ------------------------------------------------------------------------------ JVM, .NET

const JAVA: LanguageSpec = {
  grammar: 'java',
  roles: roles([
    [CLASS, ['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration', 'annotation_type_declaration']],
    [FUNCTION, ['method_declaration', 'constructor_declaration', 'compact_constructor_declaration']],
    [DESCEND, ['program', 'class_body', 'interface_body', 'enum_body', 'enum_body_declarations', 'annotation_type_body']],
  ]),
};

function csharpOperator(node: Node): string {
  const op = field(node, 'operator') ?? field(node, 'type');
  return `operator${op ? op.text.replace(/\s+/g, '') : ''}`;
}

const CSHARP: LanguageSpec = {
  grammar: 'c_sharp',
  roles: {
    ...roles([
      [CLASS, ['class_declaration', 'struct_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration', 'record_struct_declaration']],
      [FUNCTION, ['method_declaration', 'constructor_declaration', 'property_declaration']],
      [DESCEND, ['compilation_unit', 'namespace_declaration', 'file_scoped_namespace_declaration', 'declaration_list']],
    ]),
    destructor_declaration: { as: 'function', name: (n) => `~${field(n, 'name')?.text ?? ''}` },
    operator_declaration: { as: 'function', name: csharpOperator },
    conversion_operator_declaration: { as: 'function', name: csharpOperator },
    indexer_declaration: { as: 'function', name: () => 'this' },
  },
};

const kotlinType: NameOf = (n) => childOfType(n, ['type_identifier'])?.text ?? null;
const kotlinSimple: NameOf = (n) => childOfType(n, ['simple_identifier'])?.text ?? null;

const KOTLIN: LanguageSpec = {
  grammar: 'kotlin',
  roles: {
    class_declaration: { as: 'class', name: kotlinType },
    object_declaration: { as: 'class', name: kotlinType },
    function_declaration: { as: 'function', name: kotlinSimple },
    secondary_constructor: { as: 'function', name: () => 'constructor' },
    ...roles([[DESCEND, ['source_file', 'class_body', 'enum_class_body', 'companion_object']]]),
  },
};

const SCALA: LanguageSpec = {
  grammar: 'scala',
  roles: roles([
    [CLASS, ['class_definition', 'object_definition', 'trait_definition']],
    [FUNCTION, ['function_definition', 'function_declaration']],
    [DESCEND, ['compilation_unit', 'template_body']],
  ]),
};

const SWIFT: LanguageSpec = {
  grammar: 'swift',
  roles: {
    class_declaration: { as: 'class', name: (n) => { const t = field(n, 'name'); return t ? bareType(t.text) : null; } },
    protocol_declaration: CLASS,
    function_declaration: FUNCTION,
    protocol_function_declaration: FUNCTION,
    init_declaration: { as: 'function', name: () => 'init' },
    deinit_declaration: { as: 'function', name: () => 'deinit' },
    subscript_declaration: { as: 'function', name: () => 'subscript' },
    ...roles([[DESCEND, ['source_file', 'class_body', 'enum_class_body', 'protocol_body']]]),
  },
};

// ------------------------------------------------------------------------------ Go, Rust

/**
 * Go method `func (s *Server[T]) Serve()` → `Server.Serve`: value and pointer receivers alike
 * (never `(*Server).Serve`, as Go stack traces write it), so a type's methods share its module
 * `Server`.
 */
function goMethodName(node: Node): string | null {
  const name = field(node, 'name');
  const receiver = field(node, 'receiver');
  const param = receiver ? childOfType(receiver, ['parameter_declaration', 'variadic_parameter_declaration']) : null;
  const type = param ? field(param, 'type') : null;
  if (!name) return null;
  return type ? `${bareType(type.text)}.${name.text}` : name.text;
}

/** Go `type X struct {…}` / `type X interface {…}`: a class unit; other type specs are not. */
function goTypeName(node: Node): string | null {
  const type = field(node, 'type');
  return type && (type.type === 'struct_type' || type.type === 'interface_type') ? field(node, 'name')?.text ?? null : null;
}

const GO: LanguageSpec = {
  grammar: 'go',
  roles: {
    function_declaration: FUNCTION,
    method_declaration: { as: 'function', name: goMethodName },
    type_spec: { as: 'class', name: goTypeName },
    ...roles([[DESCEND, ['source_file', 'type_declaration']]]),
  },
};

const RUST: LanguageSpec = {
  grammar: 'rust',
  roles: {
    ...roles([
      [CLASS, ['struct_item', 'enum_item', 'union_item', 'trait_item']],
      // `macro_rules! name { … }` is a unit like a function (its expansion is not parsed)
      [FUNCTION, ['function_item', 'function_signature_item', 'macro_definition']],
      [DESCEND, ['source_file', 'declaration_list']],
    ]),
    // `impl<T> Trait for path::Type<T> { fn f() }` → `Type.f`
    impl_item: { as: 'scope', name: (n) => { const t = field(n, 'type'); return t ? bareType(t.text) : null; } },
    // inline `mod m { … }` qualifies like a namespace; `mod m;` has nothing inside
    mod_item: { as: 'scope', name: (n) => (field(n, 'body') ? field(n, 'name')?.text ?? null : null), namespace: true },
  },
  leading: ['attribute_item'],
  testOnly: (attributes) => attributes.some(isRustTestAttribute),
  // 2: test-only items give no units; 3: `#[rstest]`, `#[test_case(…)]` and the like are test-only too
  version: 3,
};

/**
 * A Rust attribute that makes an item test-only: `#[cfg(test)]`, `#[cfg(all(test, …))]`,
 * `#[test]`, `#[tokio::test]`, `#[async_std::test]` and the like, `#[bench]`, and the test
 * attributes of the test crates: rstest's `#[rstest]` and `#[fixture]`, `#[test_case(…)]`,
 * `#[wasm_bindgen_test]`, `#[quickcheck]` (with a crate path or arguments or not).
 */
export function isRustTestAttribute(text: string): boolean {
  const inner = /^#\[\s*([\s\S]*?)\s*\]$/.exec(text)?.[1].replace(/\s+/g, '');
  if (inner === undefined) return false;
  return /^cfg\((all\()?test[,)]/.test(inner) || inner === 'bench' ||
    /^(\w+::)*(test|rstest|fixture|test_case|wasm_bindgen_test|quickcheck)(\(.*\))?$/.test(inner);
}

// ------------------------------------------------------------------------------ Ruby, PHP

const rubyName: NameOf = (n) => { const t = field(n, 'name'); return t ? dotted(t.text) : null; };

const RUBY: LanguageSpec = {
  grammar: 'ruby',
  roles: {
    class: { as: 'class', name: rubyName },
    module: { as: 'class', name: rubyName },
    method: FUNCTION,
    singleton_method: FUNCTION,
    // `class << self`, and `private def x` / `included do … end` (a call whose arguments define methods)
    ...roles([[DESCEND, ['program', 'body_statement', 'singleton_class', 'call', 'argument_list', 'do_block', 'block_body']]]),
  },
};

const PHP: LanguageSpec = {
  grammar: 'php',
  roles: roles([
    [CLASS, ['class_declaration', 'interface_declaration', 'trait_declaration', 'enum_declaration']],
    [FUNCTION, ['method_declaration', 'function_definition']],
    // namespaces qualify nothing (like Java packages); `if (!function_exists('f')) { function f() … }`
    [DESCEND, ['program', 'namespace_definition', 'compound_statement', 'declaration_list', 'enum_declaration_list', 'if_statement', 'else_clause', 'else_if_clause']],
  ]),
};

// ------------------------------------------------------------------------------ JavaScript, TypeScript

const FUNCTION_VALUES = ['arrow_function', 'function_expression', 'function', 'generator_function'];
const VALUE_WRAPPERS = ['parenthesized_expression', 'as_expression', 'satisfies_expression'];

/** A property key as a name: `f`, `'b-c'` → `b-c`, `#p`; computed keys (`[k]`) are not names. */
function keyName(key: Node | null): string | null {
  if (!key) return null;
  if (key.type === 'string') return key.text.slice(1, -1) || null;
  return key.type === 'computed_property_name' ? null : key.text;
}

/**
 * A value that holds functions: a function is a `function` unit named `name`; an object literal
 * is a `scope` that qualifies its methods and function-valued properties with `name` ('' = no
 * qualifier); anything else is skipped.
 */
function byValue(value: Node | null, name: string | null): Exclude<Role, { as: 'pick' }> | null {
  // `(…)`, TypeScript `{ … } as const`, `{ … } satisfies Api`
  for (let guard = 0; value && guard < 4 && VALUE_WRAPPERS.includes(value.type); guard++) value = value.namedChild(0);
  if (!value || name === null) return null;
  if (FUNCTION_VALUES.includes(value.type)) return { as: 'function', name: () => name };
  return value.type === 'object' ? { as: 'scope', name: () => name } : null;
}

/** `const f = () => …`, `const f = function …` (a function); `const api = { f() {} }` (a scope). */
function declaratorRole(node: Node): Exclude<Role, { as: 'pick' }> | null {
  const name = field(node, 'name');
  return name && name.type === 'identifier' ? byValue(field(node, 'value'), name.text) : null;
}

/** Class field holding a function: `handler = () => {…}`. */
function fieldFunctionName(node: Node): string | null {
  const value = field(node, 'value');
  const name = field(node, 'name') ?? field(node, 'property');
  return value && name && FUNCTION_VALUES.includes(value.type) ? name.text : null;
}

/**
 * `Foo.prototype.bar = function …` → `Foo.bar`; `module.exports.f = …` / `exports.f = …` → `f`
 * (`module.exports = () => …` → `module.exports`); objects qualify their functions:
 * `module.exports = { f() {} }` → `f`, `Foo.prototype = { bar() {} }` → `Foo.bar`.
 */
function assignmentRole(node: Node): Exclude<Role, { as: 'pick' }> | null {
  const right = field(node, 'right');
  const left = field(node, 'left');
  if (!right || !left || (left.type !== 'identifier' && left.type !== 'member_expression')) return null;
  const target = left.text.replace(/\s+/g, '');
  const name = right.type === 'object'
    ? target.replace(/^(module\.)?exports(\.|$)/, '').replace(/\.prototype$/, '')
    : target.replace(/^(module\.)?exports\./, '').replace(/\.prototype\./, '.');
  return /^[\w$.#]*$/.test(name) ? byValue(right, name) : null;
}

/** `Object.assign(Foo.prototype, { bar() {} })` → a scope `Foo` (its objects' functions are `Foo.bar`). */
function objectAssignRole(node: Node): Exclude<Role, { as: 'pick' }> | null {
  const callee = field(node, 'function');
  const target = field(node, 'arguments')?.namedChild(0) ?? null;
  if (callee?.text !== 'Object.assign' || !target || (target.type !== 'identifier' && target.type !== 'member_expression')) return null;
  const name = target.text.replace(/\s+/g, '').replace(/\.prototype$/, '');
  return /^[\w$.]+$/.test(name) ? { as: 'scope', name: () => name } : null;
}

/** The declared name, or `default` for an anonymous `export default`. */
const orDefault: NameOf = (n) => field(n, 'name')?.text ?? 'default';

/** Callees whose last function argument is a module's body (AMD / RequireJS). */
const AMD_CALLEES = ['define', 'require', 'requirejs'];

/**
 * Whether function `node` is the factory of an AMD module, `define([…], function (…) { … })`
 * (or `require([…], …)`, `define(function (require) { … })`): the module's code, not a unit.
 */
function isAmdFactory(node: Node): boolean {
  const args = node.parent;
  const call = args?.parent;
  if (args?.type !== 'arguments' || call?.type !== 'call_expression') return false;
  const callee = field(call, 'function');
  return callee?.type === 'identifier' && AMD_CALLEES.includes(callee.text) && args.lastNamedChild?.id === node.id;
}

/** An AMD module's factory is looked into (its body is module level); any other function value is a unit. */
const functionValueRole = (node: Node): Exclude<Role, { as: 'pick' }> => (isAmdFactory(node) ? { as: 'descend' } : { as: 'function', name: orDefault });

/** `define([…], function … )` and the like: look into the arguments; `Object.assign(…)`: a scope. */
function callRole(node: Node): Exclude<Role, { as: 'pick' }> | null {
  const callee = field(node, 'function');
  if (callee?.type === 'identifier' && AMD_CALLEES.includes(callee.text)) return { as: 'descend' };
  return objectAssignRole(node);
}

function jsSpec(grammar: string): LanguageSpec {
  return {
    grammar,
    roles: {
      ...roles([
        [CLASS, ['class_declaration', 'abstract_class_declaration', 'interface_declaration', 'enum_declaration']],
        [FUNCTION, ['function_declaration', 'generator_function_declaration', 'method_definition', 'method_signature', 'abstract_method_signature']],
        [DESCEND, ['program', 'class_body', 'interface_body', 'object_type', 'statement_block', 'ambient_declaration']],
        [WRAP, ['export_statement', 'lexical_declaration', 'variable_declaration', 'expression_statement']],
      ]),
      // `export default class { … }`, `export default function () { … }`, `export default () => …`
      class: { as: 'class', name: orDefault },
      // `export default function () { … }`; the factory of an AMD module is its module level
      ...roles([[{ as: 'pick', pick: functionValueRole }, FUNCTION_VALUES]]),
      variable_declarator: { as: 'pick', pick: declaratorRole },
      public_field_definition: { as: 'function', name: fieldFunctionName },
      field_definition: { as: 'function', name: fieldFunctionName },
      assignment_expression: { as: 'pick', pick: assignmentRole },
      // object literals reached through a scope above (or `export default { … }`): their methods
      // and `key: () => …` / `key: function …` / `key: { … }` properties
      ...roles([[DESCEND, ['object', 'arguments', ...VALUE_WRAPPERS]]]),
      call_expression: { as: 'pick', pick: callRole },
      // an AMD factory's `return { f: function … }` / `return Foo` (function bodies are never
      // entered otherwise: at module level only a factory holds a return)
      return_statement: DESCEND,
      pair: { as: 'pick', pick: (n) => byValue(field(n, 'value'), keyName(field(n, 'key'))) },
      internal_module: { as: 'scope', name: (n) => dotted(field(n, 'name')?.text ?? ''), namespace: true },
      module: { as: 'scope', name: () => '' },
    },
    leading: ['decorator'],
  };
}

/** Extraction specs by grammar name. */
export const SPECS: Readonly<Record<string, LanguageSpec>> = {
  python: PYTHON, java: JAVA, c_sharp: CSHARP, kotlin: KOTLIN, scala: SCALA, swift: SWIFT,
  go: GO, rust: RUST, c: C, cpp: CPP, ruby: RUBY, php: PHP,
  javascript: jsSpec('javascript'), typescript: jsSpec('typescript'), tsx: jsSpec('tsx'),
};

/**
 * The extraction spec for a file, or undefined when its language is indexed at file level only.
 * `.tsx` uses the TSX grammar; `.h` the C++ grammar (a superset good enough for C headers, and
 * right for the C++ headers that share the extension); headers (`.h`, `.hpp`, `.hh`, `.hxx`,
 * `.h++`) also make their function declarations units (`CPP_HEADER`).
 */
export function specFor(path: string, language: Language | undefined): LanguageSpec | undefined {
  switch (language) {
    case 'typescript': return path.endsWith('.tsx') ? SPECS.tsx : SPECS.typescript;
    case 'c': return path.endsWith('.h') ? CPP_HEADER : SPECS.c;
    case 'cpp': return /\.(hpp|hh|hxx|h\+\+)$/.test(path) ? CPP_HEADER : SPECS.cpp;
    case 'csharp': return SPECS.c_sharp;
    case undefined: return undefined;
    default: return SPECS[language];
  }
}

/**
 * Which extractor handles `path`: its grammar name, or `file` for languages indexed as whole
 * files. Two paths with the same extractor give the same units for the same bytes.
 */
export function extractorOf(path: string): string {
  const spec = specFor(path, languageOf(path));
  return spec ? spec.id ?? spec.grammar : 'file';
}

/**
 * The specs whose units changed (`version` above 1), as `name@version` joined by commas (`rust@3`):
 * part of the key of a cache of units made from many blobs (the mined commits), so such a cache is
 * rebuilt when a language's units change.
 */
export function unitVersionsKey(): string {
  const specs = [...Object.values(SPECS), CPP_HEADER];
  return specs.filter((s) => (s.version ?? 1) > 1).map((s) => `${s.id ?? s.grammar}@${s.version}`).sort().join(',');
}

/** {@link extractorOf} with its spec's `version` when above 1 (`rust@3`): the blob cache's part of a key. */
export function extractorKey(path: string): string {
  const spec = specFor(path, languageOf(path));
  if (!spec) return 'file';
  const name = spec.id ?? spec.grammar;
  return (spec.version ?? 1) > 1 ? `${name}@${spec.version}` : name;
}
