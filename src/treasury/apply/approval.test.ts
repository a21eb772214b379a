import { describe, expect, it } from 'vitest';
import type { CashOutMove, WithdrawMove } from '../moves.ts';
import { refuseLeaving } from './approval.ts';
import type { ExecutorPolicy } from './types.ts';

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
const policy: ExecutorPolicy = {
  convert: { slippageBps: 50, quoteRefreshes: 3 },
  destinations: {
    cold: { kind: 'withdraw', coin: 'ETH', network: 'ETH', address: EVM },
    bank: { kind: 'cash-out', currency: 'PHP', channelName: 'INSTAPAY', channelSubject: 'gcash', recipientName: 'Juan Cruz' },
  },
};
const w: WithdrawMove = { kind: 'withdraw', clientId: 'tp0123456789abcdefw002', reason: '', coin: 'ETH', network: 'ETH', address: EVM, amount: '0.5', destination: 'cold' };
const c: CashOutMove = { kind: 'cash-out', clientId: '1234567890123456002', reason: '', currency: 'PHP', amount: '1000', channelName: 'INSTAPAY', channelSubject: 'gcash', extendInfo: { recipientName: 'Juan Cruz' }, destination: 'bank' };

describe('money that leaves the venue: approval and configured destinations', () => {
  it('passes only with approval, to a destination the move repeats field for field', () => {
    expect(refuseLeaving(w, policy, true)).toBeUndefined();
    expect(refuseLeaving(c, policy, true)).toBeUndefined();
    expect(refuseLeaving(w, policy, false)).toMatch(/needs approval.*--approve.*nothing was sent/);
  });

  it('names what is wrong: unknown destination, a field that differs, a kind mismatch, the amount, the client id', () => {
    expect(refuseLeaving({ ...w, destination: 'friend' }, policy, true)).toMatch(/'friend': not a destination in the config \(destinations: cold, bank\)/);
    expect(refuseLeaving({ ...w, network: 'BSC' }, policy, true)).toMatch(/network "BSC" where the config has "ETH"/);
    expect(refuseLeaving({ ...w, addressTag: '42' }, policy, true)).toMatch(/addressTag "42" where the config has null/);
    expect(refuseLeaving({ ...w, destination: 'bank' }, policy, true)).toMatch(/'bank' is a cash-out destination, not a withdrawal one/);
    expect(refuseLeaving({ ...c, extendInfo: { recipientName: 'Someone Else' } }, policy, true)).toMatch(/extendInfo\.recipientName "Someone Else" where the config has "Juan Cruz"/);
    expect(refuseLeaving({ ...w, amount: '0' }, policy, true)).toMatch(/amount 0 must be greater than 0/);
    expect(refuseLeaving({ ...w, amount: '-1' }, policy, true)).toMatch(/amount -1 must be greater than 0/);
    expect(refuseLeaving({ ...w, clientId: 'x'.repeat(31) }, policy, true)).toMatch(/is not a withdrawOrderId \(1 to 30/);
    expect(refuseLeaving({ ...c, clientId: '0123456789' }, policy, true)).toMatch(/is not an internalOrderId \(10 to 20 digits, not starting with 0/);
    // Checked before approval: an off-config move is refused for that reason, approved or not.
    expect(refuseLeaving({ ...w, destination: 'friend' }, policy, false)).toMatch(/not a destination in the config/);
  });
});
