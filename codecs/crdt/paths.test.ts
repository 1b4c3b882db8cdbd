import { describe, expect, it } from 'vitest';
import { Model } from 'json-joy/lib/json-crdt/index.js';
import { decodeFrame, pathOf, formatPointer, pathSegments } from '../index.js';
import { positionLabel } from '../core/position-label.js';

function frames() {
  const model = Model.create(undefined, 65537);
  model.api.set({ title: 'plan', todos: [] });
  const before = model.api.flush();
  model.api.str(['title']).ins(4, ' B');
  model.api.arr(['todos']).ins(0, [{ text: 'x' }]);
  const patch = model.api.flush();
  return { model: model.toBinary(), patch: patch.toBinary(), first: before.toBinary() };
}

function paths(bytes: Uint8Array) {
  const index = decodeFrame(bytes, {}).index!;
  index.expandAll(index.root);
  const out: string[] = [];
  for (let id = 1; id < index.store.size; id++) out.push(pathOf(index, id));
  return { index, out };
}

describe('json-joy paths read like the verbose JSON, not chunk positions', () => {
  it('patch: id, meta, ops[k] and each operand by role', () => {
    const { index, out } = paths(frames().patch);
    expect(index.format).toBe('crdt-patch');
    expect(out).toContain('$.id');
    expect(out).toContain('$.ops[0]');
    expect(out).toContain('$.ops[0].obj');
    expect(out).toContain('$.ops[0].after');
    expect(out).toContain('$.ops[0].value');
    expect(out.some((p) => /\.values\[0\]$/.test(p))).toBe(true);
    expect(out.filter((p) => p.includes('<chunk'))).toEqual([]);
    const obj = [...Array(index.store.size).keys()].find((id) => pathOf(index, id) === '$.ops[0].obj')!;
    expect(formatPointer(pathSegments(index, obj))).toBe('/ops/0/obj');
    expect(positionLabel(index, obj, 0)).toBe('obj');
  });

  it('model: root, clock and object keys by name', () => {
    const { index, out } = paths(frames().model);
    expect(index.format).toBe('crdt-model');
    expect(out).toContain('$.root');
    expect(out).toContain('$.root.title');
    expect(out).toContain('$.root.todos');
    expect(out).toContain('$.clock');
  });
});
