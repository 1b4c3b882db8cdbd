/** Objects a structured clone of `value` creates one by one (typed arrays and strings are copied whole). */
export function clonedObjects(value: unknown, seen = new Set<unknown>()): number {
  if (
    value === null ||
    typeof value !== 'object' ||
    seen.has(value) ||
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer
  )
    return 0;
  seen.add(value);
  let n = 1;
  for (const v of Object.values(value)) n += clonedObjects(v, seen);
  return n;
}
