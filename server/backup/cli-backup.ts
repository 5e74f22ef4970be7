import { dataDirOf } from '../config.js';
import { only, required, text, type Io, type Parsed } from '../cli-args.js';
import { AppError } from '../errors/app-error.js';
import { exportArchive } from './export.js';
import { importArchive } from './import.js';

/** Until the PostgreSQL backend reads and writes archives, refuse rather than back up the SQLite file beside it. */
function sqliteOnly(): void {
  if (process.env.DATABASE_URL) throw new AppError('NotImplementedError', 'export and import of a PostgreSQL database (DATABASE_URL) are not implemented yet');
}

/** `hearth export --file F.tar.gz [--data DIR]`: the archive is written; a summary goes to stderr. */
export async function exportCommand(parsed: Parsed, io: Io): Promise<number> {
  only(parsed, ['file', 'data']);
  const file = required(parsed, 'file');
  sqliteOnly();
  const summary = await exportArchive({ dataDir: dataDirOf(text(parsed, 'data')), file, log: (m) => io.err(`${m}\n`) });
  io.err(`exported ${summary.tables} tables (${summary.rows} rows) and ${summary.media} media files to ${file}\n`);
  return 0;
}

/** `hearth import --file F.tar.gz [--data DIR] [--force]`: refuses a non-empty data dir unless --force. */
export async function importCommand(parsed: Parsed, io: Io): Promise<number> {
  only(parsed, ['file', 'data', 'force']);
  const file = required(parsed, 'file');
  sqliteOnly();
  const dataDir = dataDirOf(text(parsed, 'data'));
  const summary = await importArchive({ dataDir, file, force: parsed.flags.get('force') === true });
  io.err(`imported ${summary.tables} tables (${summary.rows} rows) and ${summary.media} media files into ${dataDir}\n`);
  return 0;
}
