import { isRecord } from '../../api/decode';
import type { ProjectCodeNote } from '../../api/types';

/** Hearth's own key in a type's pluginOptions (Strapi ignores it): `{ defaultPopulate }`. */
const HEARTH = 'hearth';

/** The default populate of a type as the editor shows it: paths as written, anything else as JSON. */
export function defaultPopulateText(pluginOptions: Record<string, unknown> | undefined): string {
  const hearth = pluginOptions?.[HEARTH];
  const value = isRecord(hearth) ? hearth.defaultPopulate : undefined;
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** What the field's text saves: JSON when it reads as an object or list, else paths (`*`, `a,b.c`); empty removes it. */
function populateOf(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      // Sent as written: the server answers which part it cannot read.
      return trimmed;
    }
  }
  return trimmed;
}

/** The pluginOptions with the field's default populate in `hearth.defaultPopulate` (other keys kept). */
export function withDefaultPopulate(pluginOptions: Record<string, unknown>, text: string): Record<string, unknown> {
  const { [HEARTH]: hearth, ...others } = pluginOptions;
  const { defaultPopulate: _old, ...otherHearth } = isRecord(hearth) ? hearth : {};
  const value = populateOf(text);
  const next = value === undefined ? otherHearth : { ...otherHearth, defaultPopulate: value };
  return Object.keys(next).length > 0 ? { ...others, [HEARTH]: next } : others;
}

const STATUS_LABEL: Record<ProjectCodeNote['status'], string> = { applied: 'Applied', 'not-applied': 'Not applied', 'not-run': 'Not run' };

/** The project's code beside a type: what Hearth applies from it and what it does not run. */
export function ProjectCodeNotes({ notes }: { readonly notes: readonly ProjectCodeNote[] }) {
  if (notes.length === 0) return null;
  return (
    <section className="card stack" aria-labelledby="project-code-heading" data-testid="project-code">
      <h2 id="project-code-heading">Project code</h2>
      <p className="muted">Hearth reads this project&apos;s code but never runs it. Route middlewares that only set literal query values are applied; the rest is listed here.</p>
      <ul>
        {notes.map((note) => (
          <li key={`${note.file} ${note.message}`}>
            <span className={note.status === 'applied' ? 'badge badge-published' : 'badge badge-draft'}>{STATUS_LABEL[note.status]}</span> <code>{note.file}</code>: {note.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
