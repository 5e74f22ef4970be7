/** The server's own words for a field error, behind a toggle, when the form shows them differently. */
export function ServerMessage({ text, shown }: { readonly text: string | undefined; readonly shown: string }) {
  if (text === undefined || text === shown) return null;
  return (
    <details className="server-message">
      <summary>Server message</summary>
      <code>{text}</code>
    </details>
  );
}
