/** The AppError `run` throws, as status, name, message and details; fails when nothing is thrown. */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    const { status, name, message, details } = err as { status: number; name: string; message: string; details: unknown };
    return { status, name, message, details };
  }
  throw new Error('nothing was thrown');
}
