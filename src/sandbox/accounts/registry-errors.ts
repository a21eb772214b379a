/** Why the account registry refused a change; route handlers map these to venue codes. */
export type AccountErrorCode =
  | 'NO_SUCH_ACCOUNT'
  | 'DUPLICATE_EMAIL'
  | 'DUPLICATE_UID'
  | 'NOT_A_MASTER'
  | 'SUB_ACCOUNT_LIMIT'
  | 'NO_SUCH_KEY'
  | 'DUPLICATE_KEY';

export class AccountRegistryError extends Error {
  readonly code: AccountErrorCode;
  constructor(code: AccountErrorCode, message: string) {
    super(message);
    this.name = 'AccountRegistryError';
    this.code = code;
  }
}
