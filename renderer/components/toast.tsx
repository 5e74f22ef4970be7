import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

/** The tone of a notification. */
export type Tone = 'success' | 'error' | 'info';
interface Toast {
  readonly id: number;
  readonly message: string;
  readonly tone: Tone;
}
/** Shows short notifications ("Saved", "Published") in a live region. */
export interface Notifier {
  notify(message: string, tone?: Tone): void;
}

const ToastContext = createContext<Notifier>({ notify: () => {} });
const TOAST_MS = 5000;

/** Holds the notifications and renders them in a polite live region. */
export function ToastProvider({ children }: { readonly children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const notify = useCallback(
    (message: string, tone: Tone = 'success') => {
      const id = next.current++;
      setToasts((all) => [...all.slice(-3), { id, message, tone }]);
      window.setTimeout(() => dismiss(id), TOAST_MS);
    },
    [dismiss],
  );
  const value = useMemo(() => ({ notify }), [notify]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.tone}`} data-testid="toast">
            <span>{t.message}</span>
            <button type="button" className="btn btn-ghost btn-icon btn-small" aria-label="Dismiss notification" onClick={() => dismiss(t.id)}>
              <span aria-hidden="true">×</span>
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** The notifier of the nearest ToastProvider. */
export function useToast(): Notifier {
  return useContext(ToastContext);
}
