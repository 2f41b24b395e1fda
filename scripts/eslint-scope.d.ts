// The part of eslint-scope 8's API (installed with eslint; the package ships no types) scripts/build-sandbox-vitest.ts uses.
declare module 'eslint-scope' {
  export interface Reference {
    identifier: { name: string };
    isWrite(): boolean;
  }
  export interface Scope {
    through: Reference[];
  }
  export interface ScopeManager {
    globalScope: Scope | null;
  }
  export function analyze(ast: object, options: { ecmaVersion: number; sourceType: 'script' | 'module' }): ScopeManager;
}
