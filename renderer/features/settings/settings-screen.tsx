import { PageHeader } from '../../components/feedback';
import { InformationSection } from './information-section';
import { LocalesSection } from './locales-section';
import { RolePermissionsSection } from './role-permissions-section';
import { SettingsNav } from './settings-nav';
import { StrapiArchiveSection } from './strapi-archive-section';

/** Settings: the server, locales, what the public (no token) may do, and Strapi archives in and out. */
export function SettingsScreen() {
  return (
    <div className="screen">
      <PageHeader title="Settings" />
      <SettingsNav />
      <InformationSection />
      <LocalesSection />
      <RolePermissionsSection />
      <StrapiArchiveSection />
    </div>
  );
}
