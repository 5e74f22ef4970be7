import type { ActionGroup } from '../../api/types';

/** The last segment of an action name (`api::article.article.find` -> `find`). */
export function shortAction(action: string): string {
  return action.slice(action.lastIndexOf('.') + 1);
}

/** Props of the permissions picker. */
export interface PermissionsPickerProps {
  readonly groups: readonly ActionGroup[];
  readonly value: ReadonlySet<string>;
  readonly onChange: (value: Set<string>) => void;
  readonly idPrefix: string;
}

/** Checkboxes for every content API action, grouped by content-type or plugin, with "all" per group. */
export function PermissionsPicker({ groups, value, onChange, idPrefix }: PermissionsPickerProps) {
  const set = (actions: readonly string[], on: boolean) => {
    const next = new Set(value);
    for (const a of actions) if (on) next.add(a);
    else next.delete(a);
    onChange(next);
  };
  return (
    <div className="permissions">
      {groups.map((g) => {
        const all = g.actions.every((a) => value.has(a));
        const some = g.actions.some((a) => value.has(a));
        const groupId = `${idPrefix}-${g.uid.replace(/[^A-Za-z0-9]/g, '-')}`;
        return (
          <fieldset key={g.uid} className="permission-group">
            <legend>{g.displayName}</legend>
            <div className="check permission-all">
              <input
                id={`${groupId}-all`}
                type="checkbox"
                checked={all}
                ref={(el) => {
                  if (el) el.indeterminate = some && !all;
                }}
                onChange={(e) => set(g.actions, e.target.checked)}
              />
              <label htmlFor={`${groupId}-all`}>
                All <span className="visually-hidden">{g.displayName} actions</span>
              </label>
            </div>
            {g.actions.map((action) => (
              <div className="check" key={action}>
                <input id={`${groupId}-${shortAction(action)}`} type="checkbox" checked={value.has(action)} onChange={(e) => set([action], e.target.checked)} />
                <label htmlFor={`${groupId}-${shortAction(action)}`}>
                  <span className="visually-hidden">{g.displayName} </span>
                  {shortAction(action)}
                </label>
              </div>
            ))}
          </fieldset>
        );
      })}
    </div>
  );
}
