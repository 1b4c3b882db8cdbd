import type { SessionChartData } from '../compare/session/cumulative.js';
import { sessionReportHtml, sessionReportMarkdown, type MachineInfo } from '../compare/session/report.js';
import type { CaptureConnection, CaptureSession } from '../compare/session/capture-input.js';
import type { SessionMessage, SessionRow } from '../compare/session/session.js';

/**
 * `compare --session --report`: the report of a finished comparison, with its chart — the
 * one the comparison's own sizes give (cumulative.ts `sessionChart`, as the inspector draws
 * it), so the CLI's report and the inspector's "Save report" chart the same codecs.
 */
export function sessionReport(
  kind: 'html' | 'markdown',
  run: {
    capture: CaptureSession;
    messages: readonly SessionMessage[];
    connections: readonly CaptureConnection[];
    rows: readonly SessionRow[];
    chart: SessionChartData | null;
    machine?: MachineInfo;
    elapsedMs: number;
  },
): string {
  const chart = run.chart;
  const input = {
    title: 'wirescope session comparison',
    scope: `${run.capture.kind === 'har' ? 'HAR' : 'wirescope'} capture: ${run.messages.length} messages on ${run.connections.length} connection${run.connections.length === 1 ? '' : 's'}`,
    rows: run.rows,
    chart,
    // A file's '' is "none negotiated" only when the file says it recorded it (extensionsRecorded); otherwise "not recorded".
    connections: run.connections.map((c) => ({
      connectionId: c.connectionId,
      url: c.url,
      extensions: c.extensions || c.extensionsRecorded ? c.extensions : null,
    })),
    machine: run.machine ?? { runtime: 'unknown runtime', os: 'unknown OS', cores: null },
    engine: 'zlib (Node, as ws and Chromium run it)',
    generatedAt: new Date().toISOString(),
    elapsedMs: run.elapsedMs,
  };
  return kind === 'html' ? sessionReportHtml(input) : sessionReportMarkdown(input);
}
