/**
 * The lazily loaded half of Monaco: only ever reached through loadMonaco() (monaco-loader.ts),
 * so the editor core, its CSS, the JSON language and both worker constructors land in a
 * separate chunk. Only the editor API plus the few contributions the viewer uses are
 * imported, not `monaco-editor` (which pulls in every language).
 */
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/format/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/readOnlyMessage/register';
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/features/wordOperations/register';
import 'monaco-editor/languages/features/json/register';
// The JSON language's lazy chunk (jsonMode) registers editor contributions that need these
// services; registered only then, after the first editor has started the service
// collection, the next editor fails with "depends on UNKNOWN service ICodeLensCache /
// treeViewsDndService / ISuggestMemories". Registering the services up front avoids it.
import 'monaco-editor/editor/contrib/codelens/browser/codeLensCache';
import 'monaco-editor/editor/common/services/treeViewsDndService';
import 'monaco-editor/editor/contrib/suggest/browser/suggestMemory';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import { EDN_LANGUAGE_ID, ednConfiguration, ednMonarch } from './edn-language';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    return label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};

if (!monaco.languages.getLanguages().some((l) => l.id === EDN_LANGUAGE_ID)) {
  monaco.languages.register({
    id: EDN_LANGUAGE_ID,
    aliases: ['EDN', 'CBOR diagnostic notation'],
    extensions: ['.edn', '.diag'],
  });
  monaco.languages.setLanguageConfiguration(EDN_LANGUAGE_ID, ednConfiguration);
  monaco.languages.setMonarchTokensProvider(EDN_LANGUAGE_ID, ednMonarch);
}

export { monaco };
