import { desktopBridge } from '../../api/desktop';
import { describeError } from '../../api/errors';
import { informationDecoder } from '../../api/types';
import { useLoad } from '../../api/use-load';
import { CopyButton } from '../../components/copy-button';
import { ErrorNotice, Loading } from '../../components/feedback';
import { useClient } from '../auth/session';

/** The server's URL, data folder, database and storage. */
export function InformationSection() {
  const client = useClient();
  const info = useLoad(async () => informationDecoder(await client.get('/admin/api/information')), 'information');
  const bridge = desktopBridge();
  const data = info.data;
  return (
    <section className="card" aria-labelledby="server-heading">
      <h2 id="server-heading">Server</h2>
      {info.error ? <ErrorNotice message={describeError(info.error)} onRetry={info.reload} /> : null}
      {info.loading && !data ? <Loading /> : null}
      {data?.warnings.map((warning) => (
        <div key={warning} className="notice notice-warning" role="status" data-testid="server-warning">
          {warning}
        </div>
      ))}
      {data ? (
        <dl className="meta-list wide">
          <dt>Server URL</dt>
          <dd>
            <code data-testid="server-url">{data.serverUrl}</code> <CopyButton text={data.serverUrl} label="Copy server URL" />
          </dd>
          <dt>Data folder</dt>
          <dd>
            <code data-testid="data-dir">{data.dataDir}</code>{' '}
            {bridge ? (
              <button type="button" className="btn btn-small" onClick={() => void bridge.openDataFolder()}>
                Open data folder
              </button>
            ) : null}
          </dd>
          {data.schemasDir ? (
            <>
              <dt>Schemas folder</dt>
              <dd>
                <code>{data.schemasDir}</code>
              </dd>
            </>
          ) : null}
          <dt>Database</dt>
          <dd>{data.database === 'postgres' ? 'PostgreSQL' : 'SQLite'}</dd>
          <dt>File storage</dt>
          <dd>{data.uploadProvider === 's3' ? 'S3-compatible object storage' : 'Local folder'}</dd>
          <dt>Version</dt>
          <dd>{data.version}</dd>
        </dl>
      ) : null}
    </section>
  );
}
