/**
 * Paths the tests read from, computed once here (from this file's own place) so a test
 * file can live anywhere under codecs/ without counting `../` itself.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** This folder: codecs/test/helpers (scripts tests run in a child process live here). */
export const helpersDir = path.dirname(fileURLToPath(import.meta.url));

/** The repository root. */
export const repoRoot = path.resolve(helpersDir, '../../..');

/** The shared test data beside the repository (RFC vectors), or WIRESCOPE_SHARED. */
export const sharedDir = process.env.WIRESCOPE_SHARED ?? path.resolve(repoRoot, '../shared');

/** A path inside the repository: `repoPath('samples/order.cbor')`. */
export const repoPath = (...parts: string[]): string => path.join(repoRoot, ...parts);
