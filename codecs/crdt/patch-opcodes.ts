/**
 * json-joy's patch opcodes and their names, on their own so that what describes a patch
 * (describe.ts) and what walks one (patch-walker.ts) both import them without importing
 * each other.
 */
/** json-joy's `JsonCrdtPatchOpcode`. */
export const PatchOpcode = {
  new_con: 0,
  new_val: 1,
  new_obj: 2,
  new_vec: 3,
  new_str: 4,
  new_bin: 5,
  new_arr: 6,
  ins_val: 9,
  ins_obj: 10,
  ins_vec: 11,
  ins_str: 12,
  ins_bin: 13,
  ins_arr: 14,
  upd_arr: 15,
  del: 16,
  nop: 17,
} as const;

export type PatchOpName = keyof typeof PatchOpcode;

export const OP_NAMES: (PatchOpName | undefined)[] = [];
for (const [name, code] of Object.entries(PatchOpcode)) OP_NAMES[code] = name as PatchOpName;

/** The mnemonic of an opcode (the `arg` of a `crdt_op` node), or undefined. */
export function patchOpName(opcode: number): PatchOpName | undefined {
  return OP_NAMES[opcode];
}
