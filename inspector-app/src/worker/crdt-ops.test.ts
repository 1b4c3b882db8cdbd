import { describe, expect, it } from 'vitest';
import { Model } from 'json-joy/lib/json-crdt/index.js';
import { WorkerHandlers } from './handlers.js';

function patchBytes(): Uint8Array {
  const model = Model.create(undefined, 65537);
  model.api.set({ title: 'plan', todos: [], gone: 1 });
  model.api.flush();
  model.api.str(['title']).ins(4, ' B');
  model.api.arr(['todos']).ins(0, [{ text: 'x' }]);
  model.api.obj([]).del(['gone']);
  return model.api.flush().toBinary();
}

describe('CRDT tab: one compact line per patch operation', () => {
  it('gives each operation its id, name, target and bytes', () => {
    const h = new WorkerHandlers();
    const data = patchBytes();
    h.store.add({ frameId: 1, connectionId: 'c', direction: 'received', time: 0, opcode: 'binary', data });
    const s = h.methods.crdt({ frameId: 1, format: 'auto' })!;
    expect(s.kind).toBe('patch');
    const ops = s.ops!;
    expect(ops.length).toBeGreaterThan(3);
    const insStr = ops.find((o) => o.op === 'ins_str')!;
    expect(insStr.id).toMatch(/^65537\.\d+$/);
    expect(insStr.target).toMatch(/^65537\.\d+$/);
    expect(insStr.detail).toMatch(/^" B" after 65537\.\d+$/);
    expect(ops.find((o) => o.op === 'ins_obj')!.detail).toMatch(/^text → 65537\.\d+$/);
    expect(ops.find((o) => o.op === 'new_obj')!.target).toBe('');
    // Every operation's bytes, plus the patch's id / meta / count, make the frame.
    expect(ops.reduce((n, o) => n + o.bytes, 0)).toBeLessThan(data.length);
    expect(ops.every((o) => o.bytes > 0)).toBe(true);
  });
});
