/**
 * The legacy v4 payout-outlet catalogue (spec 2.14 and 4.11 show no bodies; these shapes are the
 * sandbox's plausible reading, matching the endpoint table's examples): categories, outlets (id
 * `<bank>_<channel>` like the spec's `citi_SWIFTPAY_PESONET`) and their fees, all static.
 */

export interface OutletCategory {
  id: string;
  name: string;
}

export interface PayoutOutlet {
  id: string;
  name: string;
  outlet_category: string;
  region: string;
  is_enabled: boolean;
  currency: string;
  min_amount: string;
  max_amount: string;
  /** Digits of a valid account number at this outlet. */
  account_number_length: { min: number; max: number };
  fee: string;
  fee_type: 'fixed' | 'percentage';
}

export const OUTLET_CATEGORIES: readonly OutletCategory[] = [
  { id: 'bank', name: 'Bank' },
  { id: 'e-wallet', name: 'E-wallet' },
  { id: 'remittance', name: 'Cash pick-up' },
];

const outlet = (id: string, name: string, category: string, fee: string, enabled = true, accountDigits = { min: 10, max: 16 }): PayoutOutlet => ({
  id,
  name,
  outlet_category: category,
  region: 'PH',
  is_enabled: enabled,
  currency: 'PHP',
  min_amount: '50',
  max_amount: category === 'bank' ? '500000' : '50000',
  account_number_length: accountDigits,
  fee,
  fee_type: 'fixed',
});

export const PAYOUT_OUTLETS: readonly PayoutOutlet[] = [
  outlet('citi_SWIFTPAY_PESONET', 'Citibank', 'bank', '20'),
  outlet('bpi_SWIFTPAY_PESONET', 'Bank of the Philippine Islands', 'bank', '20'),
  outlet('bdo_INSTAPAY', 'BDO Unibank', 'bank', '10'),
  outlet('unionbank_INSTAPAY', 'UnionBank', 'bank', '10'),
  outlet('gcash_INSTAPAY', 'GCash', 'e-wallet', '10', true, { min: 11, max: 11 }),
  outlet('paymaya_INSTAPAY', 'Maya', 'e-wallet', '10', true, { min: 11, max: 11 }),
  outlet('cebuana_CASHPICKUP', 'Cebuana Lhuillier', 'remittance', '50', false, { min: 6, max: 20 }),
];

export function findOutlet(id: string): PayoutOutlet | undefined {
  return PAYOUT_OUTLETS.find((o) => o.id.toLowerCase() === id.toLowerCase());
}

/** The public record of an outlet (internal validation fields left out). */
export function outletView(o: PayoutOutlet): Record<string, unknown> {
  return { id: o.id, name: o.name, outlet_category: o.outlet_category, region: o.region, is_enabled: o.is_enabled, currency: o.currency, min_amount: o.min_amount, max_amount: o.max_amount };
}

export function feeView(o: PayoutOutlet): Record<string, unknown> {
  return { payment_outlet: o.id, currency: o.currency, amount: o.fee, fee_type: o.fee_type };
}
