import { NavLink } from 'react-router';
import { editableTypes, useSchemas } from '../content-types/schemas-context';

/** The list of content-types beside the content screens. */
export function TypeSwitcher() {
  const { contentTypes } = useSchemas();
  const types = editableTypes(contentTypes);
  const collections = types.filter((t) => t.schema.kind !== 'singleType');
  const singles = types.filter((t) => t.schema.kind === 'singleType');
  const group = (title: string, list: typeof types) =>
    list.length === 0 ? null : (
      <>
        <h2 className="subnav-title">{title}</h2>
        <ul className="nav-list">
          {list.map((t) => (
            <li key={t.uid}>
              <NavLink to={`/content/${encodeURIComponent(t.uid)}`} className={({ isActive }) => (isActive ? 'nav-link active' : 'nav-link')}>
                {t.schema.info.displayName}
              </NavLink>
            </li>
          ))}
        </ul>
      </>
    );
  return (
    <nav className="subnav" aria-label="Content-types">
      {group('Collections', collections)}
      {group('Single types', singles)}
    </nav>
  );
}
