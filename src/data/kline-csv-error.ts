/** A kline file that cannot be imported as is: names the file, the line (1-based) and the reason. */
export class KlineCsvError extends Error {
  readonly file: string;
  readonly line: number | undefined;
  readonly reason: string;
  constructor(file: string, line: number | undefined, reason: string) {
    super(line === undefined ? `${file}: ${reason}` : `${file}:${line}: ${reason}`);
    this.name = 'KlineCsvError';
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}
