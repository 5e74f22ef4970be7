import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { array, dataOf } from '../../api/decode';
import { componentDecoder, contentTypeDecoder, localesDecoder, type Component, type ContentType, type Locale } from '../../api/types';
import { useLoad } from '../../api/use-load';
import { useClient } from '../auth/session';

/** The content-types, components and locales every screen needs, loaded once and reloaded after a change. */
export interface Schemas {
  readonly contentTypes: readonly ContentType[];
  readonly components: readonly Component[];
  readonly locales: readonly Locale[];
  readonly loading: boolean;
  readonly error: unknown;
  reload(): void;
  contentType(uid: string): ContentType | undefined;
  component(uid: string): Component | undefined;
}

const SchemasContext = createContext<Schemas | null>(null);

/** Loads content-types, components and locales for the screens below it. */
export function SchemasProvider({ children }: { readonly children: ReactNode }) {
  const client = useClient();
  const loaded = useLoad(async () => {
    const [types, components, locales] = await Promise.all([
      client.get('/admin/api/content-types'),
      client.get('/admin/api/components'),
      client.get('/admin/api/i18n/locales'),
    ]);
    return {
      contentTypes: dataOf(array(contentTypeDecoder))(types).sort((a, b) => a.schema.info.displayName.localeCompare(b.schema.info.displayName)),
      components: dataOf(array(componentDecoder))(components).sort((a, b) => a.uid.localeCompare(b.uid)),
      locales: localesDecoder(locales),
    };
  }, 'schemas');
  const { reload } = loaded;
  const data = loaded.data;
  const contentType = useCallback((uid: string) => data?.contentTypes.find((t) => t.uid === uid), [data]);
  const component = useCallback((uid: string) => data?.components.find((c) => c.uid === uid), [data]);
  const value = useMemo<Schemas>(
    () => ({
      contentTypes: data?.contentTypes ?? [],
      components: data?.components ?? [],
      locales: data?.locales ?? [],
      loading: loaded.loading && !data,
      error: loaded.error,
      reload,
      contentType,
      component,
    }),
    [data, loaded.loading, loaded.error, reload, contentType, component],
  );
  return <SchemasContext.Provider value={value}>{children}</SchemasContext.Provider>;
}

/** The loaded schemas (inside SchemasProvider). */
export function useSchemas(): Schemas {
  const schemas = useContext(SchemasContext);
  if (!schemas) throw new Error('useSchemas must be used inside SchemasProvider');
  return schemas;
}

/** Only user content-types (not the built-in users-permissions or upload ones). */
export function editableTypes(types: readonly ContentType[]): ContentType[] {
  return types.filter((t) => t.uid.startsWith('api::'));
}
