/** Props of a table's column headings. */
export interface TableHeadProps {
  readonly columns: readonly string[];
  /** Adds a last column for each row's buttons, named for screen readers only. */
  readonly actions?: boolean;
}

/** The header row of a `.table`: one `th scope="col"` per column, then the row actions' column. */
export function TableHead({ columns, actions = false }: TableHeadProps) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th scope="col" key={c}>
            {c}
          </th>
        ))}
        {actions ? (
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}
