/** A recording's file: created (truncated) at start, appended to by one write at a time. */
import { closeSync, openSync, write, writeSync } from 'node:fs';
import type { RecordSink } from './recorder.js';

export function openFileSink(path: string): RecordSink & { close(): void } {
  const fd = openSync(path, 'w');
  return {
    write(text, done) {
      const bytes = Buffer.from(text);
      const writeFrom = (offset: number): void => {
        write(fd, bytes, offset, bytes.length - offset, null, (error, written) => {
          if (error) done(error);
          else if (offset + written < bytes.length) writeFrom(offset + written);
          else done(null);
        });
      };
      writeFrom(0);
    },
    writeNow(text) {
      const bytes = Buffer.from(text);
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    },
    close: () => closeSync(fd),
  };
}
