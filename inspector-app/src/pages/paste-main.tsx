/** paste.html: decode one pasted or dropped frame (see PastePage). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startDecodeWorker } from '../worker/client.js';
import { PastePage } from './PastePage.js';
import '../components/shell/app.css';

const worker = startDecodeWorker();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PastePage worker={worker} />
  </StrictMode>,
);
