/**
 * The options page (manifest `options_ui`): the capture policy (capture-policy.ts), stored in
 * `storage.local`; the background reads it on start and follows its changes.
 */
import browser from 'webextension-polyfill';
import { parsePolicy, parseSites, POLICY_KEY, type CaptureMode, type CapturePolicy } from './capture-policy.js';

const form = document.getElementById('form') as HTMLFormElement;
const sites = document.getElementById('sites') as HTMLTextAreaElement;
const status = document.getElementById('status') as HTMLElement;
const actions = document.getElementById('actions') as HTMLInputElement;
const radios = (): HTMLInputElement[] => [...form.querySelectorAll<HTMLInputElement>('input[name=mode]')];

function show(policy: CapturePolicy): void {
  for (const r of radios()) r.checked = r.value === policy.mode;
  sites.value = policy.sites.join('\n');
  actions.checked = policy.actions !== false;
}

void browser.storage.local.get(POLICY_KEY).then((stored) => show(parsePolicy(stored[POLICY_KEY])));

form.addEventListener('submit', (e) => {
  e.preventDefault();
  const mode = (radios().find((r) => r.checked)?.value ?? 'always') as CaptureMode;
  const policy = parsePolicy({ mode, sites: parseSites(sites.value), actions: actions.checked });
  void browser.storage.local.set({ [POLICY_KEY]: policy }).then(
    () => {
      show(policy);
      status.textContent =
        policy.mode === 'sites' && !policy.sites.length ? 'Saved: no site listed, so nothing is captured.' : 'Saved.';
    },
    (err: unknown) => (status.textContent = `Not saved: ${String(err)}`),
  );
});
