/**
 * Opening and closing pages over a bare CDP connection to the browser, without attaching to
 * them: an attached driver (Playwright enables the Network domain on every page it knows)
 * receives an event, with the payload, for every WebSocket frame the page gets, which costs
 * the browser and the driver more CPU than the page's own work and would be measured with it.
 * The pages report their results themselves (ext-bench-server.ts `/result`).
 */
import WebSocket from 'ws';

export interface CdpTargets {
  /** A fresh browser context (extensions do not run in it), or undefined for the default one. */
  newContext(): Promise<string>;
  open(url: string, browserContextId?: string): Promise<string>;
  close(targetId: string): Promise<void>;
  disconnect(): void;
}

export async function connectTargets(browserEndpoint: string): Promise<CdpTargets> {
  const socket = new WebSocket(browserEndpoint, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  socket.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString('utf8')) as { id?: number; result?: unknown; error?: { message: string } };
    const w = m.id !== undefined ? waiting.get(m.id) : undefined;
    if (!w) return; // events: none subscribed
    waiting.delete(m.id!);
    if (m.error) w.reject(new Error(m.error.message));
    else w.resolve(m.result);
  });
  const send = <T>(method: string, params: Record<string, unknown> = {}): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    newContext: async () => (await send<{ browserContextId: string }>('Target.createBrowserContext')).browserContextId,
    open: async (url, browserContextId) => (await send<{ targetId: string }>('Target.createTarget', browserContextId ? { url, browserContextId } : { url })).targetId,
    close: async (targetId) => void (await send('Target.closeTarget', { targetId })),
    disconnect: () => socket.close(),
  };
}
