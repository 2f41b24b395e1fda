// Owns the QuickJS WebAssembly module of the process (or worker thread) and its memory, capped in bytes.
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSSyncVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DEFAULT_MEMORY_BYTES } from './limits.js';

// The variant is imported alone: `quickjs-emscripten`'s entry imports all four variants' glue (about 2 MB more).
const variant = (await import('@jitl/quickjs-wasmfile-release-sync')).default as unknown as QuickJSSyncVariant;

const PAGE_BYTES = 65_536;
/** What emscripten's build of quickjs-emscripten 0.32 starts with (its INITIAL_MEMORY), bytes. */
const INITIAL_MEMORY_BYTES = 16 * 1024 * 1024;

/**
 * The most WebAssembly memory the sandbox may use, bytes: 64 MiB, the same figure as a run's heap limit
 * (DEFAULT_MEMORY_BYTES), the engines of the snapshot included (~10 MB of it), so a run's own allocations get ~54 MiB.
 * QuickJS's own limit cannot be trusted in bytes here: without `malloc_usable_size` in emscripten it counts 8 bytes per
 * allocation, so `for (;;) a.push({})` grew the memory to 340 MB and 2,000 strings of 100 KB (200 MB) ran to
 * completion — up to emscripten's 2 GiB maximum, in the host's memory (issue 32). At this maximum the allocator's
 * growth fails, malloc returns NULL and QuickJS throws its out-of-memory error (see `memoryGrowthDenied`). 64 rather
 * than 80 MiB: a runaway run's pages count in the process's peak RSS until the renewal after it (a cold
 * tasks/bench.json run: 247 MB at 64 MiB, 265 MB at 80 MiB).
 */
export const MEMORY_MAXIMUM_BYTES = DEFAULT_MEMORY_BYTES;

/** Growths of the memory refused at MEMORY_MAXIMUM_BYTES since the module was made (each failed allocation tries up to four). */
let denied = 0;

/**
 * A memory for a new module: emscripten takes it instead of making its own (`wasmMemory`, kept by quickjs-emscripten's
 * `newVariant`), and grows it through its `grow`, which counts the growths refused at the maximum.
 */
function cappedMemory(): WebAssembly.Memory {
  const memory = new WebAssembly.Memory({ initial: INITIAL_MEMORY_BYTES / PAGE_BYTES, maximum: MEMORY_MAXIMUM_BYTES / PAGE_BYTES });
  const grow = memory.grow.bind(memory);
  memory.grow = (pages: number): number => {
    try {
      return grow(pages);
    } catch (error) {
      denied++;
      throw error;
    }
  };
  return memory;
}

/** A new instance of the module, with a new capped memory (the compiled WebAssembly is cached by the variant's loader). */
function load(): Promise<QuickJSWASMModule> {
  return newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory: cappedMemory() }));
}

/**
 * The QuickJS engine (release-sync variant of quickjs-emscripten 0.32), made from WebAssembly once per process or
 * thread at import time (top-level await, ~30–90 ms) so every later run is synchronous; `renewQuickJS` replaces it.
 * Each run makes its own runtime from it: nothing is shared between runs but the compiled code.
 */
export let quickJS = undefined as unknown as QuickJSWASMModule;

/** How many growths of the memory were refused so far (compare before and after a run: see run-in-sandbox.ts). */
export function memoryGrowthDenied(): number {
  return denied;
}

/**
 * Replaces the module with a fresh instance and memory. WebAssembly memory never shrinks: a run that grew it (up to
 * MEMORY_MAXIMUM_BYTES) keeps those pages resident for the life of the instance, so the sandbox renews it after such a
 * run (see `renewSandboxWhenGrown`). Everything made from the old instance (runtimes, contexts, handles) is dead after.
 */
export async function renewQuickJS(): Promise<void> {
  if (quickJS !== undefined) {
    // Dropped and collected before the new one is made: until V8 collects the old instance, its memory (every page a
    // run touched, up to the cap) stays resident beside the new one, for seconds on a busy worker. A cold
    // tasks/bench.json run peaked at 250–257 MB (the kernel's high-water mark) with both resident, 239–246 with this.
    // The collector is found before the old instance is dropped, and never throws: a renewal always ends with one.
    const collect = garbageCollector();
    quickJS = undefined as unknown as QuickJSWASMModule;
    collect?.();
  }
  quickJS = await load();
}

/** This thread's `gc()` once found (see garbageCollector); null: none can be had. */
let gc: (() => void) | null | undefined;

/**
 * This thread's `gc()`: one full V8 collection, synchronous (~10–30 ms on a code worker). The process's own when it
 * runs with `--expose-gc`; else exposed the way jest's leak detector does it: `--expose-gc` set, and the global `gc`
 * of a new context kept. The flag is left set: V8's flags are the process's, and unsetting it raced another worker
 * between its own set and its new context (a fresh review: 5 of 80 simultaneous renewals found no `gc`, and the
 * renewal threw). Set, it only puts `gc` on contexts made later. Undefined when none can be had: the old memory then
 * waits for V8's next full collection.
 * Not the inspector's `HeapProfiler.collectGarbage` (no flag): it collects for low memory, every page compacted, and
 * its evacuation put 6–8 MB more on top of the old memory still resident: 248–251 MB at the same point.
 */
function garbageCollector(): (() => void) | undefined {
  if (gc === undefined) {
    gc = null;
    const own = (globalThis as { gc?: unknown }).gc;
    if (typeof own === 'function') gc = own as () => void;
    else {
      try {
        setFlagsFromString('--expose-gc');
        const exposed: unknown = runInNewContext('gc');
        if (typeof exposed === 'function') gc = exposed as () => void;
      } catch {
        // No collector: see above.
      }
    }
  }
  return gc ?? undefined;
}

// Assigned inside renewQuickJS, not as `= await load()`: the module's top-level await keeps the value it awaited alive
// for the life of the process (V8 holds it in the finished module's generator), so the first instance and the memory
// a run grew in it were never freed by a renewal (a heap snapshot showed the retaining path).
await renewQuickJS();
