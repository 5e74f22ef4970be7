import { useState } from 'react';
import { CopyButton } from '../../components/copy-button';
import { assistantSnippets, mcpUrl, type ServerPlace, type Transport } from './assistant-config';

const TRANSPORTS: readonly { value: Transport; label: string; hint: string }[] = [
  { value: 'stdio', label: 'Local command (stdio)', hint: 'the assistant starts hearth mcp on this data folder; works beside the running server' },
  { value: 'http', label: 'HTTP', hint: 'the assistant calls this server while it runs' },
];

/** The configuration of Claude Desktop, Cursor and VS Code for a new token, each with Copy. */
export function AssistantSnippets({ place, token }: { readonly place: ServerPlace; readonly token: string }) {
  const [transport, setTransport] = useState<Transport>('stdio');
  const snippets = assistantSnippets({ place, token, transport });
  return (
    <section className="stack" aria-labelledby="assistant-config-heading">
      <h2 id="assistant-config-heading" className="section-title">
        Configuration
      </h2>
      <fieldset className="checks">
        <legend className="field-label">How the assistant connects</legend>
        {TRANSPORTS.map((t) => (
          <div className="check" key={t.value}>
            <input
              id={`assistant-transport-${t.value}`}
              type="radio"
              name="assistant-transport"
              checked={transport === t.value}
              onChange={() => setTransport(t.value)}
              aria-describedby={`assistant-transport-${t.value}-hint`}
            />
            <label htmlFor={`assistant-transport-${t.value}`}>{t.label}</label>
            <span id={`assistant-transport-${t.value}-hint`} className="field-hint inline">
              {t.hint}
            </span>
          </div>
        ))}
      </fieldset>
      {transport === 'http' ? (
        <p>
          MCP endpoint: <code data-testid="assistant-mcp-url">{mcpUrl(place)}</code>, with the header <code>Authorization: Bearer &lt;token&gt;</code>.
        </p>
      ) : (
        <p>
          The assistant starts <code>hearth mcp</code> itself, from this installation ({place.cli.args[0] ?? place.cli.command}), on this machine: use HTTP for an
          assistant on another machine.
        </p>
      )}
      {snippets.map((s) => (
        <div
          className="assistant-snippet"
          key={s.client}
          role="group"
          aria-labelledby={`assistant-${s.client}-heading`}
          data-testid={`assistant-snippet-${s.client}`}
        >
          <div className="assistant-snippet-head">
            <h3 id={`assistant-${s.client}-heading`}>{s.label}</h3>
            <CopyButton text={s.text} label={`Copy ${s.label} configuration`} />
          </div>
          <p className="field-hint">{s.where}</p>
          <pre className="assistant-code" data-testid={`assistant-code-${s.client}`}>
            <code>{s.text}</code>
          </pre>
        </div>
      ))}
    </section>
  );
}
