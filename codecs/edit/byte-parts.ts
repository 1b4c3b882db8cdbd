import { ByteWriter } from './byte-writer.js';

/**
 * Bytes assembled inside out without copying at each level: a container's encoding is
 * its head, then its items' parts by reference, flattened once at the end with an explicit
 * stack. So an edit nested 100,000 deep encodes in linear time and no call-stack depth.
 * Each part owns one run of bytes; a child appended is recorded with the offset in that
 * run where it goes.
 */
export class ByteParts {
  private readonly children: ByteParts[] = [];
  /** Offsets in `run` where each child's bytes go. */
  private readonly at: number[] = [];
  private readonly run = new ByteWriter();

  /** Where the next bytes go (after everything appended so far). */
  get writer(): ByteWriter {
    return this.run;
  }

  append(child: ByteParts): void {
    this.children.push(child);
    this.at.push(this.run.size);
  }

  toBytes(): Uint8Array {
    // First pass: the total size; second: copy, each part's run split around its children.
    let total = 0;
    const all: ByteParts[] = [this];
    for (let i = 0; i < all.length; i++) {
      total += all[i].run.size;
      for (const c of all[i].children) all.push(c);
    }
    const out = new Uint8Array(total);
    let o = 0;
    const stack: { parts: ByteParts; next: number; from: number }[] = [{ parts: this, next: 0, from: 0 }];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const { parts } = top;
      const until = top.next < parts.children.length ? parts.at[top.next] : parts.run.size;
      o = parts.run.copyTo(out, o, top.from, until);
      top.from = until;
      if (top.next >= parts.children.length) {
        stack.pop();
        continue;
      }
      stack.push({ parts: parts.children[top.next++], next: 0, from: 0 });
    }
    return out;
  }
}
