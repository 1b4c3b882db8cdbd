/**
 * Monaco's editor core alone: loaded (and evaluated) one step before monaco-setup.ts, which
 * adds the contributions and languages, so no single task evaluates all of Monaco (~3 MB of
 * script: the Text tab's longest main-thread task when it opened for the first time).
 */
export * as monaco from 'monaco-editor/editor/editor.api';
