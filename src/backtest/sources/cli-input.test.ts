import { describe, expect, it } from 'vitest';
import smaCrossover from '../../../strategies/sma-crossover.ts';
import { isPlainNumberText, parseBalanceArgs, parseParamArgs } from './cli-input.ts';

const params = (pairs: string[]) => parseParamArgs(pairs, smaCrossover.params);

describe('parseParamArgs', () => {
  it('reads number fields as plain decimals, and leaves other text for the schema to refuse', () => {
    expect(params(['fast=10', 'slow=-2.5', 'quoteAmount=100.50'])).toEqual({ fast: 10, slow: -2.5, quoteAmount: '100.50' });
    expect(params(['fast=x'])).toEqual({ fast: 'x' });
    for (const t of ['10', '-3', '+4', '0.25', '.5']) expect(isPlainNumberText(t)).toBe(true);
    for (const t of ['0x10', '0b11111', '0o17', '1e1', '1E-3', 'Infinity', '', ' 1', '1.', '1_000']) expect(isPlainNumberText(t)).toBe(false);
  });

  it('refuses a number written other than as a plain decimal, naming the parameter and the text', () => {
    expect(() => params(['fast=0x10'])).toThrowError(/^--param fast: '0x10' is not a plain decimal number/);
    expect(() => params(['fast=1e1'])).toThrowError(/--param fast: '1e1' is not a plain decimal number/);
    expect(() => params(['slow=0b11111'])).toThrowError(/--param slow: '0b11111'/);
  });

  it('refuses a parameter given twice, naming it and both values', () => {
    expect(() => params(['fast=10', 'slow=30', 'fast=12'])).toThrowError('--param fast was given twice (fast=10, fast=12): give it once');
  });
});

describe('parseBalanceArgs', () => {
  it('reads ASSET=AMOUNT pairs, assets upper-cased', () => {
    expect(parseBalanceArgs(['usdt=10000', 'BTC=0.5'])).toEqual({ USDT: '10000', BTC: '0.5' });
  });

  it('refuses an asset given twice, in any case', () => {
    expect(() => parseBalanceArgs(['PHP=1', 'php=2'])).toThrowError('--balance PHP was given twice (PHP=1, php=2): give it once');
  });

  it('refuses an amount a balance cannot hold, naming --balance and echoing the amount as typed', () => {
    expect(() => parseBalanceArgs(['USDT=10000000000000000000000000000000'])).toThrowError("--balance USDT: '10000000000000000000000000000000' is more than the 9007199254740991 whole units a balance can hold");
    for (const t of ['1e3', '+5', '-1', '.5e1', '0x10']) expect(() => parseBalanceArgs([`USDT=${t}`])).toThrowError(`--balance USDT: '${t}' is not an amount >= 0 written as a plain decimal (e.g. 10000 or 0.5)`);
    expect(() => parseBalanceArgs(['USDT=0.0000000000000000001'])).toThrowError("--balance USDT: '0.0000000000000000001' has more than the 18 decimals a balance can hold");
    expect(() => parseBalanceArgs(['USDT=-5'])).toThrowError("--balance USDT: '-5' is not an amount >= 0");
    expect(parseBalanceArgs(['USDT=9007199254740991.5'])).toEqual({ USDT: '9007199254740991.5' });
  });
});
