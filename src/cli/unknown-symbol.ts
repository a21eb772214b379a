/** The venue's refusal of a symbol it does not list, as the usage error `record` and `exchange-info` give. */
import { ExchangeError } from '../exchange/errors/errors.ts';
import { UsageError } from './errors.ts';

/** The venue's answer to a symbol it does not list: -1121 "Invalid symbol.", or -1025 about parameter 'symbol'. */
export function isUnknownSymbol(e: unknown): e is ExchangeError {
  if (!(e instanceof ExchangeError)) return false;
  return e.venueCode === -1121 || (e.venueCode === -1025 && /'symbol'/.test(e.venueMessage ?? ''));
}

export function unknownSymbol(symbol: string, venueMessage: string | undefined): UsageError {
  return new UsageError(`--symbol ${symbol}: the exchange lists no symbol ${symbol}${venueMessage === undefined ? '' : ` (it answered: ${venueMessage})`}; \`halyard exchange-info\` lists the ones it has`);
}
