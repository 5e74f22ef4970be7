/** Writes one line to stderr (stdout carries only the ready line and token plaintexts). */
export type Logger = (message: string) => void;
