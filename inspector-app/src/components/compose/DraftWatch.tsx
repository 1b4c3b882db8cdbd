import { useEffect } from 'react';
import type { EditSyntax } from '../../worker/edit-text.js';

/**
 * Renders nothing; calls `onChange` with the editor's syntax and text when either changes
 * (and once when mounted), so the owner of an outcome can drop one that speaks of another text.
 */
export function DraftWatch(props: {
  syntax: EditSyntax;
  text: string;
  onChange: (syntax: EditSyntax, text: string) => void;
}): null {
  const { syntax, text, onChange } = props;
  useEffect(() => onChange(syntax, text), [onChange, syntax, text]);
  return null;
}
