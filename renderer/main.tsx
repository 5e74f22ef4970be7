import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAdminRouter } from './app';
import './styles/base.css';
import './styles/layout.css';
import './styles/forms.css';
import './styles/screens.css';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App router={createAdminRouter()} />
    </StrictMode>,
  );
}
