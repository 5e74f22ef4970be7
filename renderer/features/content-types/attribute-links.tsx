import { useState } from 'react';
import { MEDIA_KINDS, RELATION_KINDS, type RelationKind } from '../../api/schema';
import { Field } from '../../components/field';
import { relationLabel } from './attribute-kinds';
import { CommonFlags, type OptionProps } from './attribute-options';
import { NewComponentForm } from './new-component-form';
import { Check, NumberInput } from './option-controls';
import { editableTypes, useSchemas } from './schemas-context';

const MEDIA_LABELS: Record<(typeof MEDIA_KINDS)[number], string> = { images: 'Images', videos: 'Videos', audios: 'Audio', files: 'Other files' };
const isRelationKind = (v: string): v is RelationKind => RELATION_KINDS.some((k) => k === v);

/** Media: single or multiple, and which kinds of files are allowed. */
export function MediaOptions({ attribute, patch, localizedType }: OptionProps) {
  const allowed = attribute.allowedTypes ?? [...MEDIA_KINDS];
  const toggle = (kind: string, on: boolean) => patch({ allowedTypes: on ? [...allowed.filter((k) => k !== kind), kind] : allowed.filter((k) => k !== kind) });
  return (
    <div className="stack">
      <fieldset className="checks">
        <legend className="field-label">How many files</legend>
        <div className="check">
          <input id="attr-media-single" type="radio" name="media-multiple" checked={attribute.multiple !== true} onChange={() => patch({ multiple: false })} />
          <label htmlFor="attr-media-single">One file</label>
        </div>
        <div className="check">
          <input id="attr-media-multiple" type="radio" name="media-multiple" checked={attribute.multiple === true} onChange={() => patch({ multiple: true })} />
          <label htmlFor="attr-media-multiple">Several files</label>
        </div>
      </fieldset>
      <fieldset className="checks">
        <legend className="field-label">Allowed types</legend>
        {MEDIA_KINDS.map((kind) => (
          <Check key={kind} id={`attr-media-${kind}`} label={MEDIA_LABELS[kind]} checked={allowed.includes(kind)} onChange={(on) => toggle(kind, on)} />
        ))}
      </fieldset>
      <CommonFlags attribute={attribute} patch={patch} localizedType={localizedType} />
    </div>
  );
}

/** Relation: its kind and its target content-type. */
export function RelationOptions({ attribute, patch, localizedType }: OptionProps) {
  const { contentTypes } = useSchemas();
  return (
    <div className="stack">
      <div className="row-2">
        <Field id="attr-relation" label="Kind of relation">
          <select id="attr-relation" value={attribute.relation ?? 'manyToOne'} onChange={(e) => isRelationKind(e.target.value) && patch({ relation: e.target.value })}>
            {RELATION_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {relationLabel(kind)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="attr-target" label="Related type" required>
          <select id="attr-target" value={attribute.target ?? ''} onChange={(e) => patch({ target: e.target.value || undefined })}>
            <option value="">Choose a type…</option>
            {editableTypes(contentTypes).map((t) => (
              <option key={t.uid} value={t.uid}>
                {t.schema.info.displayName}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <p className="field-hint">The relation is stored on this side; the related type is not changed.</p>
      <CommonFlags attribute={attribute} patch={patch} localizedType={localizedType} />
    </div>
  );
}

function CountLimits({ attribute, patch }: Pick<OptionProps, 'attribute' | 'patch'>) {
  return (
    <div className="row-2">
      <Field id="attr-min" label="Minimum entries">
        <NumberInput id="attr-min" step="1" value={attribute.min} onChange={(v) => patch({ min: v })} />
      </Field>
      <Field id="attr-max" label="Maximum entries">
        <NumberInput id="attr-max" step="1" value={attribute.max} onChange={(v) => patch({ max: v })} />
      </Field>
    </div>
  );
}

/** Component: which component, single or repeatable, and entry limits. */
export function ComponentOptions({ attribute, patch, localizedType }: OptionProps) {
  const { components } = useSchemas();
  const [creating, setCreating] = useState(components.length === 0);
  return (
    <div className="stack">
      <Field id="attr-component" label="Component" required hint={components.length === 0 ? 'No component yet: create one here.' : undefined}>
        <select id="attr-component" value={attribute.component ?? ''} onChange={(e) => patch({ component: e.target.value || undefined })}>
          <option value="">Choose a component…</option>
          {components.map((c) => (
            <option key={c.uid} value={c.uid}>
              {c.schema.info.displayName} ({c.uid})
            </option>
          ))}
        </select>
      </Field>
      <CreateComponent open={creating} setOpen={setCreating} onCreated={(uid) => patch({ component: uid })} />
      <Check id="attr-repeatable" label="Repeatable (a list of entries)" checked={attribute.repeatable === true} onChange={(v) => patch({ repeatable: v })} />
      {attribute.repeatable ? <CountLimits attribute={attribute} patch={patch} /> : null}
      <CommonFlags attribute={attribute} patch={patch} localizedType={localizedType} />
    </div>
  );
}

/** Dynamic zone: which components the editor may add, and entry limits. */
export function DynamicZoneOptions({ attribute, patch, localizedType }: OptionProps) {
  const { components } = useSchemas();
  const chosen = attribute.components ?? [];
  const toggle = (uid: string, on: boolean) => patch({ components: on ? [...chosen.filter((c) => c !== uid), uid] : chosen.filter((c) => c !== uid) });
  const [creating, setCreating] = useState(components.length === 0);
  return (
    <div className="stack">
      <fieldset className="checks">
        <legend className="field-label">Components allowed</legend>
        {components.length === 0 ? <p className="field-hint">No component yet: create one here.</p> : null}
        {components.map((c) => (
          <Check key={c.uid} id={`attr-dz-${c.uid}`} label={`${c.schema.info.displayName} (${c.uid})`} checked={chosen.includes(c.uid)} onChange={(on) => toggle(c.uid, on)} />
        ))}
      </fieldset>
      <CreateComponent open={creating} setOpen={setCreating} onCreated={(uid) => toggle(uid, true)} />
      <CountLimits attribute={attribute} patch={patch} />
      <CommonFlags attribute={attribute} patch={patch} localizedType={localizedType} />
    </div>
  );
}

/** The "Create a new component" button, or its inline form; a created component is selected. */
function CreateComponent({ open, setOpen, onCreated }: { readonly open: boolean; readonly setOpen: (open: boolean) => void; readonly onCreated: (uid: string) => void }) {
  if (!open) {
    return (
      <button type="button" className="btn btn-ghost align-start" onClick={() => setOpen(true)}>
        Create a new component
      </button>
    );
  }
  return (
    <NewComponentForm
      onCreated={(uid) => {
        onCreated(uid);
        setOpen(false);
      }}
      onCancel={() => setOpen(false)}
    />
  );
}
