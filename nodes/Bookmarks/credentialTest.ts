import { serviceCredentialTest } from '../shared/credentialTest';
import { credentialProbeFor } from './adapters';

/**
 * "Test credential" for the Bookmark API, asking the credential's API (adapters/): the documented
 * one lists one record, Karakeep's names the key's user; each recognises the other.
 */
export const bookmarkApiTest = serviceCredentialTest(credentialProbeFor);
