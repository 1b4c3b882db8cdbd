/**
 * Build flags, replaced by esbuild `define` in extension/build/build-ext.ts. Only entry
 * scripts read them (the pure modules that unit tests import must not).
 */
/** Which browser the bundle is built for: Chrome messages carry base64, Firefox bytes. */
declare const __TARGET__: 'chrome' | 'firefox';
/** True only in `--test-build` bundles (dist/*-test): lets tests open the panel in a tab. */
declare const __TEST_HOOKS__: boolean;
/** Random per build: the secret in the names of the hook's private-channel handshake events (shared/channel.ts). */
declare const __CHANNEL_SECRET__: string;
