import { NavLink } from 'react-router';

const TABS = [
  { to: '/settings', label: 'General', end: true },
  { to: '/settings/ai-assistant', label: 'Connect an AI assistant', end: true },
  { to: '/settings/webhooks', label: 'Webhooks', end: false },
] as const;

/** The tabs of Settings: the general settings, connecting an AI assistant, and webhooks. */
export function SettingsNav() {
  return (
    <nav aria-label="Settings" className="button-row users-nav">
      {TABS.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end={tab.end} className={({ isActive }) => (isActive ? 'btn btn-small btn-primary' : 'btn btn-small')}>
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
