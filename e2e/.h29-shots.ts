// Throwaway screenshot script (not committed): the panel during a flood with the live tail.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { ensureExtensionBuild, launchChromiumWithExtension, newPageWithTabId } from './support/ext-env.js';

const PAGE = `<!doctype html><meta charset="utf-8"><title>flood</title><script>
window.__go = () => new Promise((resolve) => { const ws = new WebSocket('ws://' + location.host + '/feed'); ws.onopen = () => resolve(true); window.__stop = () => ws.send('stop'); });
</script>`;
let sent = 0;
const server = http.createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
const wss = new WebSocketServer({ server, perMessageDeflate: false });
wss.on('connection', (ws: WebSocket) => {
  const t = setInterval(() => {
    for (let i = 0; i < 50; i++)
      ws.send(JSON.stringify({ seq: sent++, symbol: 'BTC-USD', bid: 43000 + (sent % 97), ask: 43001 + (sent % 89), size: (sent % 13) / 10 }));
  }, 10);
  ws.on('message', () => clearInterval(t));
  ws.on('close', () => clearInterval(t));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const ext = await launchChromiumWithExtension(await ensureExtensionBuild('chrome'));
const { page, tabId } = await newPageWithTabId(ext.worker, () => ext.context.newPage());
await page.goto(url);
const panel = await ext.context.newPage();
await panel.goto(`chrome-extension://${ext.extensionId}/panel.html?tabId=${tabId}`);
await panel.getByTestId('frame-count').waitFor();
await page.evaluate('__go()');
await panel.locator('[data-testid=frame-row][data-sample]').first().waitFor({ timeout: 15000 });
await panel.waitForTimeout(1500);
await panel.locator('[data-testid=frame-row][data-sample]').nth(3).dispatchEvent('mousedown');
await panel.waitForTimeout(1500);
for (const scheme of ['light', 'dark'] as const) {
  await panel.emulateMedia({ colorScheme: scheme });
  for (const [w, h] of [[1440, 900], [900, 700]] as const) {
    await panel.setViewportSize({ width: w, height: h });
    await panel.waitForTimeout(800);
    await panel.screenshot({ path: `/tmp/h29/tail-${scheme}-${w}.png` });
    const geo = await panel.evaluate(`(() => { const s = document.querySelector('.ws-status'); const r = [...document.querySelectorAll('[data-testid=frame-row][data-sample]')]; return { statusOverflow: s.scrollWidth > s.clientWidth, statusH: s.getBoundingClientRect().height, samples: r.length, numW: r[0]?.querySelector('[data-column=number]').scrollWidth + '/' + r[0]?.querySelector('[data-column=number]').clientWidth }; })()`);
    console.log(scheme, w, JSON.stringify(geo));
  }
}
console.log(await panel.getByTestId('held-notice').textContent(), '|', await panel.getByTestId('flood-rates').textContent());
await page.evaluate('__stop()');
await ext.close();
server.closeAllConnections();
server.close();
