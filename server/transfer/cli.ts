import { dataDirOf, databaseUrlOf } from '../config.js';
import { openDataDir } from '../data-dir.js';
import { createTransferTokenService, TRANSFER_ACCESS, type TransferAccess } from '../auth/transfer-tokens.js';
import { only, required, text, type Io, type Parsed } from '../cli-args.js';
import { usageError } from '../errors/app-error.js';

const isAccess = (value: string): value is TransferAccess => (TRANSFER_ACCESS as readonly string[]).includes(value);

/** `hearth token create --type transfer --access push|pull|full --name NAME [--data DIR]`: the plaintext alone on stdout. */
export async function transferTokenCommand(parsed: Parsed, io: Io): Promise<number> {
  only(parsed, ['name', 'type', 'access', 'data']);
  const name = required(parsed, 'name');
  const access = required(parsed, 'access');
  if (!isAccess(access)) throw usageError(`--access must be one of ${TRANSFER_ACCESS.join(', ')}`);
  const dir = await openDataDir(dataDirOf(text(parsed, 'data')), { databaseUrl: databaseUrlOf() });
  try {
    const tokens = createTransferTokenService({ database: dir.database, salt: dir.secrets.transferTokenSalt, now: () => new Date() });
    const { accessKey } = await tokens.create({ name, access });
    io.out(`${accessKey}\n`);
    return 0;
  } finally {
    await dir.database.close();
  }
}
