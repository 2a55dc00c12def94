import { lazyPackage } from './lazy.js';
import type Koffi from 'koffi';

/**
 * glibc's malloc, Node's allocator on most Linux systems, keeps memory that was freed for reuse,
 * and gives threads their own arenas: after photo uploads (decoded on pool threads) or large
 * answers, a hub kept tens of MB it no longer used. malloc_trim(3) returns such free memory to the
 * system. Elsewhere (macOS, Windows, musl) this is a no-op.
 *
 * koffi is native code but needs no build per runtime: it is a Node-API addon (package.json
 * `cnoke.napi: 8`; @koromix/koffi-<platform>'s koffi.node exports napi_register_module_v1 and no
 * node_register_module_v<ABI>, and imports no V8 symbols), so the binary npm installs loads in
 * every Node and in Electron's main process. Its own install script stays off (allowScripts).
 */
const koffi = lazyPackage<typeof Koffi>('koffi');

let mallocTrim: ((pad: number) => number) | null | undefined;

function glibcMallocTrim(): ((pad: number) => number) | null {
  if (mallocTrim !== undefined) return mallocTrim;
  mallocTrim = null;
  if (process.platform !== 'linux') return mallocTrim;
  try {
    mallocTrim = koffi().load('libc.so.6').func('int malloc_trim(size_t)') as (pad: number) => number;
  } catch {
    // Not glibc (musl has no libc.so.6), or no FFI build for this platform.
  }
  return mallocTrim;
}

/** Gives the memory that is free in every malloc arena back to the system. Returns whether any was released. */
export function trimMalloc(): boolean {
  return glibcMallocTrim()?.(0) === 1;
}
