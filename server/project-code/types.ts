/** One piece of a project's code as Hearth treats it: applied (a route default), or not run and why. */
export interface ProjectCodeItem {
  /** The file, from the project root with `/`. */
  readonly file: string;
  /** The content type it belongs to, when it names or serves one. */
  readonly uid: string | null;
  /** The API folder it sits in (`src/api/<api>/`), null for project-wide code. */
  readonly api: string | null;
  /** `applied`: Hearth applies what it does; `not-applied`: read but not proved; `not-run`: Hearth does not run it. */
  readonly status: 'applied' | 'not-applied' | 'not-run';
  /** One line: what it is and what Hearth does with it. */
  readonly message: string;
}
