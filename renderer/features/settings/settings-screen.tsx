import { PageHeader } from '../../components/feedback';
import { InformationSection } from './information-section';
import { LocalesSection } from './locales-section';
import { RolePermissionsSection } from './role-permissions-section';

/** Settings: the server, locales, and what the public (no token) may do. */
export function SettingsScreen() {
  return (
    <div className="screen">
      <PageHeader title="Settings" />
      <InformationSection />
      <LocalesSection />
      <RolePermissionsSection />
    </div>
  );
}
