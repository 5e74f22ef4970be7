import type { UploadItem } from './use-uploads';

/** The upload queue: one progress bar per file, with its outcome. */
export function UploadQueue({ items, onClear }: { readonly items: readonly UploadItem[]; readonly onClear: () => void }) {
  if (items.length === 0) return null;
  const finished = items.every((i) => i.state === 'done' || i.state === 'failed');
  return (
    <section className="upload-queue" aria-label="Uploads">
      <ul>
        {items.map((item) => {
          const percent = Math.round(item.progress * 100);
          return (
            <li key={item.key} className={`upload-item upload-${item.state}`} data-testid="upload-item">
              <span className="upload-name">{item.name}</span>
              <progress className="upload-bar" max={100} value={percent} aria-label={`Upload of ${item.name}`} aria-valuenow={percent} aria-valuemin={0} aria-valuemax={100} />
              <span className="upload-state">
                {item.state === 'failed' ? <span role="alert">{item.error ?? 'Failed'}</span> : item.state === 'done' ? 'Done' : item.state === 'queued' ? 'Waiting' : `${percent}%`}
              </span>
            </li>
          );
        })}
      </ul>
      {finished ? (
        <button type="button" className="btn btn-ghost btn-small" onClick={onClear}>
          Clear finished uploads
        </button>
      ) : null}
    </section>
  );
}
