import type { languages } from 'monaco-editor/editor/editor.api';

/**
 * Monarch grammar for CBOR diagnostic notation (EDN, RFC 8949 section 8 / RFC 8610 appendix G)
 * as codecs/core/diagnostic.ts prints it: `h'..'` bytes, `123(` tags, `_`/`_0`..`_3`
 * encoding indicators, `simple(n)`, `ext(t, h'..')`, `/ comments /` and `# line comments`.
 */
export const EDN_LANGUAGE_ID = 'edn';

export const ednConfiguration: languages.LanguageConfiguration = {
  comments: { lineComment: '#', blockComment: ['/', '/'] },
  brackets: [
    ['{', '}'],
    ['[', ']'],
    ['(', ')'],
  ],
  autoClosingPairs: [
    { open: '{', close: '}' },
    { open: '[', close: ']' },
    { open: '(', close: ')' },
    { open: '"', close: '"', notIn: ['string'] },
  ],
};

export const ednMonarch: languages.IMonarchLanguage = {
  defaultToken: '',
  brackets: [
    { open: '{', close: '}', token: 'delimiter.curly' },
    { open: '[', close: ']', token: 'delimiter.square' },
    { open: '(', close: ')', token: 'delimiter.parenthesis' },
  ],
  tokenizer: {
    root: [
      [/\s+/, ''],
      [/#.*$/, 'comment'],
      [/\/[^/]*\//, 'comment'],
      // Byte strings: h'..', b64'..', b32'..', h32'..' and plain '..' (text as bytes).
      [/(?:h|b64|b32|h32)'[^']*'/, 'number.hex'],
      [/'(?:[^'\\]|\\.)*'/, 'string'],
      [/"/, 'string', '@string'],
      // Tag numbers directly followed by their paren: 1(, 24(, 55799(.
      [/\d+(?=\()/, 'tag'],
      [/(?:simple|ext)(?=\()/, 'keyword'],
      [/\b(?:true|false|null|undefined)\b/, 'keyword'],
      [/-?(?:Infinity|NaN)\b/, 'number'],
      [/-?0x[0-9a-fA-F]+/, 'number'],
      [/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/, 'number'],
      // Encoding indicators: `_` (indefinite) and `_0`..`_7` (argument width).
      [/_\d?/, 'annotation'],
      [/[{}()[\]]/, '@brackets'],
      [/[,:]/, 'delimiter'],
      [/…/, 'comment'],
    ],
    string: [
      [/[^\\"]+/, 'string'],
      [/\\./, 'string.escape'],
      [/"/, 'string', '@pop'],
    ],
  },
};
