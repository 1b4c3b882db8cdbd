/**
 * `npm run bench:session [frames] [engine]`: the session speed line — a session of 10,000
 * frames of ~1 KB (realistic records: a trading feed, order updates and subscriptions,
 * keys coming and going) compared across JSON / CBOR / MessagePack, permessage-deflate
 * (with and without context takeover) and the two schema codecs (Avro, Protobuf), plus
 * per-message gzip/deflate and snappy. Target: ≤ 5 s on this machine for the engine the
 * browser runs (fflate); Node's zlib (the CLI's engine) is measured too. Prints wall and
 * CPU time (process.cpuUsage) per phase: decode, then each codec.
 */
import { runSessionComparison, type SessionMessage, type SessionProgress } from '../compare/session/session.js';
import { fflateEngine, type DeflateEngine } from '../compare/session/permessage-deflate.js';
import { zlibEngine } from '../compare/session/zlib-engine.js';
import { cpuClock } from '../compare/timing.js';
import { avroCodec } from '../compare/schema/avro-codec.js';
import { sessionOfRecords } from './session-data.js';

const frames = Number(process.argv[2] ?? 10_000);
const which = process.argv[3] ?? 'both';

/**
 * A yardstick measured in the same run, before and after each comparison: JSON.parse and
 * JSON.stringify of every frame, in CPU ms. On a shared machine the comparison's time over
 * it moves far less than either figure alone.
 */
function yardstick(messages: readonly SessionMessage[]): number {
  const text = new TextDecoder();
  const c0 = cpuClock();
  let n = 0;
  for (const m of messages) n += JSON.stringify(JSON.parse(text.decode(m.data))).length;
  if (n < 0) throw new Error('unreachable');
  return cpuClock() - c0;
}

async function run(messages: SessionMessage[], engine: DeflateEngine): Promise<void> {
  const before = yardstick(messages);
  const phases = new Map<string, { wall: number; cpu: number }>();
  let phase = 'decode';
  let w0 = performance.now();
  let c0 = cpuClock();
  const close = (next: string): void => {
    const p = phases.get(phase) ?? { wall: 0, cpu: 0 };
    p.wall += performance.now() - w0;
    p.cpu += cpuClock() - c0;
    phases.set(phase, p);
    phase = next;
    w0 = performance.now();
    c0 = cpuClock();
  };
  const W = performance.now();
  const C = cpuClock();
  let last: string | null = null;
  const rows = await runSessionComparison(messages, {
    engine,
    avro: avroCodec,
    yieldEvery: 500,
    onProgress: (p: SessionProgress) => {
      const name = p.phase === 'decode' ? 'decode' : (p.codec ?? 'end');
      if (name !== last && p.codec !== null) {
        close(name);
        last = name;
      }
    },
  });
  close('end');
  const wall = performance.now() - W;
  const cpu = cpuClock() - C;
  const yard = (before + yardstick(messages)) / 2;
  const total = (codec: string) => rows.find((r) => r.codec === codec && r.connectionId === null)!;
  console.log(
    `engine ${engine.name}: ${messages.length} frames, ${(messages.reduce((a, m) => a + m.data.length, 0) / messages.length).toFixed(0)} bytes each on average`,
  );
  console.log(`  whole: ${wall.toFixed(0)} ms wall, ${cpu.toFixed(0)} ms CPU   [line: ≤ 5,000 ms]`);
  console.log(
    `  yardstick (JSON.parse + JSON.stringify of every frame): ${yard.toFixed(0)} ms CPU; the comparison is ${(cpu / yard).toFixed(1)}x of it`,
  );
  for (const [name, p] of phases)
    if (name !== 'end')
      console.log(
        `  ${name.padEnd(10)} ${p.wall.toFixed(0).padStart(6)} ms wall ${p.cpu.toFixed(0).padStart(6)} ms CPU${name === 'decode' ? '' : '  (schema inference, encoding, sizes)'}`,
      );
  for (const codec of ['captured', 'json', 'cbor', 'msgpack', 'avro', 'protobuf']) {
    const t = total(codec);
    const pmd = t.wire.contextTakeover && 'total' in t.wire.contextTakeover ? t.wire.contextTakeover.total : NaN;
    console.log(
      `  ${t.label.padEnd(20)} size ${t.size.toLocaleString('en').padStart(11)}  pmd ${pmd.toLocaleString('en').padStart(10)}  snappy ${String(t.snappy?.toLocaleString('en')).padStart(10)}${t.schema ? `  schema ${t.schema.bytes} B` : ''}${t.left ? `  left ${t.left}` : ''}`,
    );
  }
}

const messages = sessionOfRecords(frames);
if (which === 'both' || which === 'fflate') await run(messages, fflateEngine);
if (which === 'both' || which === 'zlib') await run(messages, zlibEngine());
