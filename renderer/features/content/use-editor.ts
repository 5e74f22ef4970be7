import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router';
import { ApiError, describeError } from '../../api/errors';
import { hasDraftAndPublish } from '../../api/schema';
import type { ContentType, Entry } from '../../api/types';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { useSchemas } from '../content-types/schemas-context';
import { deleteDocument, documentAction, getDocument, saveDocument } from './content-api';
import { emptyValues, mainField, toFormValues, type ComponentLookup, type FormValues } from './form-values';
import { focusFirstInvalid } from './field-focus';
import { FormProblem, toApiValues } from './payload';
import { serverFieldErrors } from './server-messages';
import { useChangedElsewhere } from './use-changed-elsewhere';
import { FormErrors, validateForm } from './validation';

/** Where the edit screen stands. */
export type EditorPhase = 'loading' | 'ready' | 'missing-locale' | 'not-found' | 'error';

interface EditorState {
  readonly phase: EditorPhase;
  readonly entry: Entry | null;
  /** For a missing locale: the version of another locale the new one can start from. */
  readonly source: Entry | null;
  readonly values: FormValues;
  readonly dirty: boolean;
  readonly errors: ReadonlyMap<string, string>;
  /** The server's own text for each field error it gave (shown on demand beside the editor's words). */
  readonly serverErrors?: ReadonlyMap<string, string>;
  readonly message: string | null;
  /** Changes when the values are replaced from outside, so uncontrolled editors (blocks) remount. */
  readonly formKey: number;
  readonly busy: string | null;
}

/** Loads one document of a type in a locale and runs the edit screen's actions against the API. */
export function useEditor(type: ContentType, documentId: string | null, locale: string | null) {
  const client = useClient();
  const schemas = useSchemas();
  const navigate = useNavigate();
  const { notify } = useToast();
  const { schema, uid } = type;
  const lookup: ComponentLookup = useCallback((c: string) => schemas.component(c)?.schema, [schemas]);
  const targetLabel = useCallback((t: string) => mainField(schemas.contentType(t)?.schema), [schemas]);
  const blank = useMemo(() => emptyValues(schema), [schema]);
  const [state, setState] = useState<EditorState>({ phase: documentId ? 'loading' : 'ready', entry: null, source: null, values: blank, dirty: false, errors: new Map(), message: null, formKey: 0, busy: null });
  const [tick, setTick] = useState(0);
  const fromEntry = useCallback((entry: Entry) => toFormValues(schema, entry.values, lookup, targetLabel), [schema, lookup, targetLabel]);
  // From an action's end until its result is read back: the stream's events are this screen's own writes.
  const readingBack = useRef(false);

  useEffect(() => {
    if (!documentId) {
      setState((s) => ({ ...s, phase: 'ready', entry: null, values: blank, dirty: false, errors: new Map(), message: null, formKey: s.formKey + 1 }));
      return;
    }
    let live = true;
    setState((s) => ({ ...s, phase: s.entry?.documentId === documentId && s.entry.locale === locale ? s.phase : 'loading' }));
    getDocument(client, uid, documentId, locale)
      .then((entry) => live && setState((s) => ({ ...s, phase: 'ready', entry, source: null, values: fromEntry(entry), dirty: false, errors: new Map(), formKey: s.formKey + 1 })))
      .finally(() => {
        if (live) readingBack.current = false;
      })
      .catch(async (error: unknown) => {
        if (!(error instanceof ApiError && error.status === 404)) return live && setState((s) => ({ ...s, phase: 'error', message: describeError(error) }));
        // Not in this locale: is the document there in another one?
        const other = locale ? await getDocument(client, uid, documentId, null).catch(() => null) : null;
        if (live) setState((s) => ({ ...s, phase: other ? 'missing-locale' : 'not-found', entry: null, source: other }));
      });
    return () => {
      live = false;
    };
  }, [client, uid, documentId, locale, tick, blank, fromEntry]);

  const changedElsewhere = useChangedElsewhere({
    uid,
    documentId,
    locale,
    entry: state.entry,
    dirty: state.dirty,
    busy: () => state.busy !== null || readingBack.current,
    reload: () => setTick((t) => t + 1),
  });

  // After a refused save, the first field in need (in the form's order) takes the focus.
  useEffect(() => {
    if (state.errors.size > 0) focusFirstInvalid();
  }, [state.errors]);

  const setField = useCallback((name: string, value: unknown) => setState((s) => ({ ...s, values: { ...s.values, [name]: value }, dirty: true })), []);

  /** Starts the missing locale version, empty or filled from the other locale. */
  const startLocale = (copy: boolean) =>
    setState((s) => ({ ...s, phase: 'ready', values: copy && s.source ? fromEntry(s.source) : blank, dirty: true, formKey: s.formKey + 1 }));

  const run = async <T,>(label: string, action: () => Promise<T>): Promise<T | null> => {
    setState((s) => ({ ...s, busy: label, message: null }));
    try {
      const result = await action();
      setState((s) => ({ ...s, busy: null, errors: new Map() }));
      return result;
    } catch (error) {
      const server = serverFieldErrors({ error, schema, values: state.values, lookup });
      const errors = error instanceof FormErrors ? new Map(error.errors) : error instanceof FormProblem ? new Map([[error.path.join('.'), error.message]]) : server.errors;
      const message = error instanceof FormErrors || error instanceof FormProblem ? 'Some fields need attention.' : errors.size > 0 ? 'The server refused some fields: check the highlighted fields.' : describeError(error);
      setState((s) => ({ ...s, busy: null, errors, serverErrors: server.server, message }));
      return null;
    }
  };

  /** Checks the values in the browser first; drafts skip required fields as Strapi's do. */
  const check = (publishing: boolean) => {
    const problems = validateForm({ schema, values: state.values, lookup, draft: !publishing && hasDraftAndPublish(schema) });
    if (problems.size > 0) throw new FormErrors(problems);
  };
  const write = async (): Promise<string> => {
    check(false);
    const data = toApiValues(schema, state.values, [], lookup);
    const id = await saveDocument(client, type, { documentId: state.entry?.documentId ?? documentId, locale, data });
    // Rendered at once: the leave guard must see the work saved before the navigation that follows.
    flushSync(() => setState((s) => ({ ...s, dirty: false })));
    return id;
  };
  const openDoc = (id: string) => navigate(`/content/${encodeURIComponent(uid)}/${id}${locale ? `?locale=${locale}` : ''}`, { replace: true });
  const after = (id: string, message: string) => {
    notify(message);
    if (id !== documentId) openDoc(id);
    else {
      readingBack.current = true;
      setTick((t) => t + 1);
    }
  };

  const save = () => run('save', write).then((id) => id && after(id, 'Saved'));
  const publish = () =>
    run('publish', async () => {
      check(true);
      const id = state.dirty || !state.entry ? await write() : state.entry.documentId;
      await documentAction(client, uid, id, 'publish', locale);
      return id;
    }).then((id) => id && after(id, 'Published'));
  const simple = (action: 'unpublish' | 'discard', message: string) => () =>
    run(action, () => documentAction(client, uid, state.entry?.documentId ?? '', action, locale)).then((r) => r && after(r.documentId, message));
  const remove = async (everyLocale: boolean) => {
    await deleteDocument(client, uid, state.entry?.documentId ?? documentId ?? '', everyLocale ? null : locale);
    notify('Entry deleted');
    flushSync(() => setState((s) => ({ ...s, dirty: false })));
    navigate(`/content/${encodeURIComponent(uid)}${locale ? `?locale=${locale}` : ''}`);
  };

  return {
    ...state,
    /** The open entry changed elsewhere while this form has unsaved edits (a clean form just reloads). */
    changedElsewhere,
    lookup,
    setField,
    startLocale,
    save,
    publish,
    unpublish: simple('unpublish', 'Unpublished'),
    discard: simple('discard', 'Changes discarded'),
    remove,
    reload: () => setTick((t) => t + 1),
  };
}

/** The edit screen's state and actions. */
export type Editor = ReturnType<typeof useEditor>;
