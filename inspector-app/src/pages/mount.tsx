import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, type AppProps } from '../App.js';

/** Mounts the app into #root (every entry page does this with its own host). */
export function mount(props: AppProps, doc: Document = document): void {
  const element = doc.getElementById('root');
  if (!element) throw new Error('wirescope: the page has no #root element');
  createRoot(element).render(
    <StrictMode>
      <App {...props} />
    </StrictMode>,
  );
}
