// Owns the one QuickJS WebAssembly module of the process, loaded once when the sandbox is first imported.
import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';

/**
 * The QuickJS engine (release-sync variant of quickjs-emscripten 0.32), compiled from WebAssembly once per
 * process at import time (top-level await, ~30–90 ms) so every later run is synchronous. Each run makes its own
 * runtime from it: nothing is shared between runs but the compiled code.
 */
// The variant is imported alone: `quickjs-emscripten`'s entry imports all four variants' glue (about 2 MB more).
export const quickJS: QuickJSWASMModule = await newQuickJSWASMModuleFromVariant(import('@jitl/quickjs-wasmfile-release-sync'));
