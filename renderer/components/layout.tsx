import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import type { User } from '../api/types';

const LINKS = [
  { to: '/content', label: 'Content' },
  { to: '/media', label: 'Media library' },
  { to: '/builder', label: 'Content-type builder' },
  { to: '/tokens', label: 'API tokens' },
  { to: '/users', label: 'Users & permissions' },
  // A full page load: the server answers the playground's page with the CSP its editor (monaco) needs.
  { to: '/playground', label: 'API playground', reload: true },
  { to: '/settings', label: 'Settings' },
  { to: '/profile', label: 'Profile' },
] as const satisfies readonly { to: string; label: string; reload?: boolean }[];

/** The app frame: a skip link, the main navigation, who is signed in, and the screen. */
export function Layout({ user, desktop, onLogout, children }: { readonly user: User; readonly desktop: boolean; readonly onLogout: () => void; readonly children: ReactNode }) {
  const name = [user.firstname, user.lastname].filter(Boolean).join(' ') || user.email;
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <aside className="sidebar">
        <p className="brand">
          <span className="brand-mark" aria-hidden="true" /> Hearth
        </p>
        <nav aria-label="Main">
          <ul className="nav-list">
            {LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} reloadDocument={'reload' in link} className={({ isActive }) => (isActive ? 'nav-link active' : 'nav-link')}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="sidebar-footer">
          <p className="user-name" title={user.email}>
            {name}
          </p>
          {desktop ? null : (
            <button type="button" className="btn btn-ghost btn-small" onClick={onLogout}>
              Log out
            </button>
          )}
        </div>
      </aside>
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
