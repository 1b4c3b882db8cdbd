import { UTF8_VALIDATE_WASM } from './utf8-validate-bytes.js';

/**
 * The WebAssembly SIMD UTF-8 validator (utf8-validate.wat) over the bytes of one frame.
 *
 * The text must be in wasm memory: the frame is copied into it a window at a time (from the
 * first string that needs it, as far as the memory holds), and the strings inside the window
 * are validated by offset, with no copy of their own. A text-heavy frame is so copied once,
 * in 64 KiB steps; a frame with a single long string costs one window, not the whole frame.
 * Memory grows only for a string longer than a window, and such memory is dropped with the
 * instance when the walk ends (`release`): no module keeps a large copy of a frame.
 */
export interface WasmUtf8 {
  /**
   * -1 when bytes[start, end) is valid UTF-8; otherwise an offset at or after which the error
   * was seen (a 16-byte block's start), the offending sequence starting at most 16 bytes
   * before it (within [start, end)). utf8.ts finds the exact byte from there. Throws only
   * if memory cannot grow for a string longer than a window.
   */
  errorBlock(bytes: Uint8Array, start: number, end: number): number;
  /** Forgets the frame (and drops memory grown past one page); call when a walk ends. */
  release(): void;
  /** Bytes of wasm memory it holds now (for the memory tests). */
  heldBytes(): number;
}

/** The WebAssembly namespace the validator is made with (`globalThis.WebAssembly`, or what a test passes). */
export type WebAssemblyApi = Pick<typeof WebAssembly, 'Module' | 'Instance'>;

interface Exports {
  memory: WebAssembly.Memory;
  validate(start: number, end: number): number;
}

/** Bytes the validator may read past a range's end (its last block is loaded whole). */
const PAD = 16;
const PAGE = 65536;
const NO_HEAP = new Uint8Array(0);

/**
 * The validator, or null where it cannot run: no WebAssembly, no SIMD (the module does not
 * compile), or a CSP without 'wasm-unsafe-eval' (compiling throws). Synchronous: the module
 * is under 500 bytes, well under the 4 KB browsers compile synchronously on a main thread.
 */
export function createWasmUtf8(wasm: WebAssemblyApi | undefined): WasmUtf8 | null {
  if (!wasm) return null;
  let module: WebAssembly.Module;
  let exports: Exports;
  try {
    module = new wasm.Module(UTF8_VALIDATE_WASM);
    exports = instantiate(wasm, module);
  } catch {
    return null;
  }
  if (!selfTestPasses(exports)) return null;

  let instance: Exports | null = exports;
  let heap = new Uint8Array(exports.memory.buffer);
  let frame: Uint8Array | null = null;
  let windowStart = 0;
  let windowEnd = 0;

  function load(bytes: Uint8Array, start: number, end: number): void {
    if (instance === null) {
      instance = instantiate(wasm!, module);
      heap = new Uint8Array(instance.memory.buffer);
    }
    if (end - start + PAD > heap.length) {
      instance.memory.grow(Math.ceil((end - start + PAD - heap.length) / PAGE));
      heap = new Uint8Array(instance.memory.buffer);
    }
    frame = bytes;
    windowStart = start;
    windowEnd = Math.min(bytes.length, start + heap.length - PAD);
    heap.set(bytes.subarray(windowStart, windowEnd));
  }

  return {
    errorBlock(bytes, start, end) {
      if (bytes !== frame || start < windowStart || end > windowEnd) load(bytes, start, end);
      const seen = instance!.validate(start - windowStart, end - windowStart);
      return seen < 0 ? -1 : seen + windowStart;
    },
    release() {
      frame = null;
      windowStart = windowEnd = 0;
      if (heap.length > PAGE) {
        // Memory cannot shrink: the grown instance goes (a new one costs microseconds).
        instance = null;
        heap = NO_HEAP;
      }
    },
    heldBytes() {
      return heap.length;
    },
  };
}

function instantiate(wasm: WebAssemblyApi, module: WebAssembly.Module): Exports {
  return new wasm.Instance(module).exports as unknown as Exports;
}

/** One valid and one invalid string: an engine that compiles the module but runs it wrong is not used. */
function selfTestPasses(exports: Exports): boolean {
  const heap = new Uint8Array(exports.memory.buffer);
  // "é€😀" then, after 16 bytes of ASCII, a surrogate (ed a0 80).
  heap.set([0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80], 0);
  heap.fill(0x61, 9, 25);
  heap.set([0xed, 0xa0, 0x80], 25);
  const ok = exports.validate(0, 25) === -1 && exports.validate(0, 28) === 16;
  heap.fill(0, 0, 28);
  return ok;
}
