import { cumulativeBytes } from '../compare/session/cumulative.js';
import { sessionReportHtml, sessionReportMarkdown, type MachineInfo } from '../compare/session/report.js';
import type { CaptureConnection, CaptureSession } from '../compare/session/capture-input.js';
import type { SessionMessage, SessionRow } from '../compare/session/session.js';

/** `compare --session --report`: the report of a finished comparison, with its chart. */
export async function sessionReport(
  kind: 'html' | 'markdown',
  run: { capture: CaptureSession; messages: readonly SessionMessage[]; connections: readonly CaptureConnection[]; rows: readonly SessionRow[]; machine?: MachineInfo; elapsedMs: number },
): Promise<string> {
  const totals = run.rows.filter((r) => r.connectionId === null).map((r) => ({ codec: r.codec, label: r.label }));
  const chart = await cumulativeBytes(run.messages, totals);
  const input = {
    title: 'wirescope session comparison',
    scope: `${run.capture.kind === 'har' ? 'HAR' : 'wirescope'} capture: ${run.messages.length} messages on ${run.connections.length} connection${run.connections.length === 1 ? '' : 's'}`,
    rows: run.rows,
    chart,
    // A file's '' is "none negotiated" only when the file says it recorded it (extensionsRecorded); otherwise "not recorded".
    connections: run.connections.map((c) => ({ connectionId: c.connectionId, url: c.url, extensions: c.extensions || c.extensionsRecorded ? c.extensions : null })),
    machine: run.machine ?? { runtime: 'unknown runtime', os: 'unknown OS', cores: null },
    engine: 'zlib (Node, as ws and Chromium run it)',
    generatedAt: new Date().toISOString(),
    elapsedMs: run.elapsedMs,
  };
  return kind === 'html' ? sessionReportHtml(input) : sessionReportMarkdown(input);
}
