/**
 * Content script, MAIN world, `document_start`, all frames: hooks the page's WebSocket.
 * Bundle as a classic script (IIFE); it imports nothing but the hook and messages.ts types.
 */
import { installHook } from './install.js';

installHook(window, { channelSecret: __CHANNEL_SECRET__ });
