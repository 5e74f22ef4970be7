import { CopyButton } from '../../components/copy-button';

/** The plaintext of a new or regenerated token, shown this once, with a copy button. */
export function TokenReveal({ accessKey }: { readonly accessKey: string }) {
  return (
    <div className="token-reveal" role="region" aria-label="New token">
      <p className="notice notice-warning">Copy this token now. For your security it will not be shown again.</p>
      <div className="input-with-button">
        <label htmlFor="token-plaintext" className="visually-hidden">
          Token
        </label>
        <input id="token-plaintext" className="mono" readOnly value={accessKey} onFocus={(e) => e.target.select()} data-testid="token-plaintext" />
        <CopyButton text={accessKey} label="Copy token" className="btn btn-primary" />
      </div>
    </div>
  );
}
