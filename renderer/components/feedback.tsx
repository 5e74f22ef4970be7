import type { ReactNode } from 'react';

/** A polite loading indicator. */
export function Loading({ label = 'Loading…' }: { readonly label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** An error message announced to screen readers, with an optional retry. */
export function ErrorNotice({ message, onRetry }: { readonly message: string; readonly onRetry?: () => void }) {
  return (
    <div className="notice notice-error" role="alert">
      <span>{message}</span>
      {onRetry ? (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** What a screen shows when it has nothing yet, with the next step to take. */
export function EmptyState({ title, children, action }: { readonly title: string; readonly children?: ReactNode; readonly action?: ReactNode }) {
  return (
    <div className="empty-state" data-testid="empty-state">
      <h2>{title}</h2>
      {children ? <p>{children}</p> : null}
      {action}
    </div>
  );
}

/** A screen's title row with its main actions. */
export function PageHeader({ title, subtitle, actions, back }: { readonly title: string; readonly subtitle?: ReactNode; readonly actions?: ReactNode; readonly back?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        {back}
        <h1>{title}</h1>
        {subtitle ? <p className="page-subtitle">{subtitle}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </header>
  );
}
