// Owns vitest's module semantics for named imports: a name the module does not export is undefined, not a link error.
import { parse, type ImportDeclaration, type Program } from 'acorn';

const transformed = new Map<string, string>();

/**
 * Rewrites a module's named and default imports as vitest's module runner (Vite's SSR transform) evaluates them:
 * `import { a, b as c } from "x"` becomes `import * as __vi_import_0__ from "x"; const a = __vi_import_0__.a,
 * c = __vi_import_0__.b;` on the same line, so a missing export reads as `undefined` (real vitest 4 gives
 * `VAT NaN%`, not a SyntaxError) while line numbers stay. Bindings are read once after the imports run (live
 * bindings to later reassigned exports are not followed). Source that does not parse is returned unchanged, so
 * QuickJS reports the syntax error itself. Results are memoised by source text.
 */
export function viteImports(source: string): string {
  const cached = transformed.get(source);
  if (cached !== undefined) return cached;
  let result = source;
  if (/\bimport\b/.test(source)) {
    let program: Program | undefined;
    try {
      program = parse(source, { ecmaVersion: 'latest', sourceType: 'module', allowAwaitOutsideFunction: true, allowHashBang: true });
    } catch {
      program = undefined;
    }
    if (program !== undefined) result = rewrite(source, program);
  }
  if (transformed.size > 5_000) transformed.clear();
  transformed.set(source, result);
  return result;
}

function rewrite(source: string, program: Program): string {
  const imports = program.body.filter((node): node is ImportDeclaration => node.type === 'ImportDeclaration');
  let output = '';
  let at = 0;
  imports.forEach((node, index) => {
    const named = node.specifiers.filter((specifier) => specifier.type !== 'ImportNamespaceSpecifier');
    if (named.length === 0) return;
    const namespace = node.specifiers.find((specifier) => specifier.type === 'ImportNamespaceSpecifier')?.local.name ?? `__vi_import_${index}__`;
    const attributes =
      node.attributes !== undefined && node.attributes.length > 0
        ? ` with { ${node.attributes.map((attribute) => source.slice(attribute.start, attribute.end)).join(', ')} }`
        : '';
    const bindings = named.map((specifier) => {
      const imported =
        specifier.type === 'ImportDefaultSpecifier'
          ? 'default'
          : specifier.imported.type === 'Identifier'
            ? specifier.imported.name
            : String(specifier.imported.value);
      return `${specifier.local.name} = ${namespace}[${JSON.stringify(imported)}]`;
    });
    output +=
      source.slice(at, node.start) +
      `import * as ${namespace} from ${source.slice(node.source.start, node.source.end)}${attributes}; const ${bindings.join(', ')};`;
    at = node.end;
  });
  return at === 0 ? source : output + source.slice(at);
}
