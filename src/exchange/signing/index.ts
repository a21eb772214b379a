/** Public surface of the signing schemes (spec 5.2-5.4, protocol notes 2). */
export { hmacSha256Hex, hexSignaturesEqual } from './hmac.ts';
export {
  encodeParams,
  totalParams,
  signTotalParams,
  stripSignature,
  percentDecodeBytes,
  verifyHmacRequest,
  type VerifyHmacRequestInput,
} from './query-signing.ts';
export { signJsonBody, jsonBodyMessage, type JsonBodySignInput, type JsonBodySignatureHeaders } from './json-body.ts';
export {
  signMerchant,
  merchantMessage,
  merchantTimestamp,
  unencodedForm,
  type MerchantHeaders,
  type MerchantMessageInput,
  type MerchantSignInput,
  type MerchantTimestampUnit,
} from './merchant.ts';
export { signLegacyV4, legacyV4Message, legacyV4Nonce, type LegacyV4Headers, type LegacyV4SignInput } from './legacy-v4.ts';
