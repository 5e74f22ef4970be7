import { NavLink } from 'react-router';

const TABS = [
  { to: '/users', label: 'End users', end: true },
  { to: '/users/roles', label: 'Roles', end: false },
  { to: '/users/settings', label: 'Registration', end: true },
] as const;

/** The tabs of Users & permissions: end users, roles, registration settings. */
export function UsersNav() {
  return (
    <nav aria-label="Users & permissions" className="button-row users-nav">
      {TABS.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end={tab.end} className={({ isActive }) => (isActive ? 'btn btn-small btn-primary' : 'btn btn-small')}>
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
