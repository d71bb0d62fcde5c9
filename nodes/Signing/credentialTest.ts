import { serviceCredentialTest } from '../shared/credentialTest';
import { credentialProbeFor } from './adapters';

/**
 * "Test credential" for the Signing API: asks the API the credential chose (the documented API:
 * `GET /api/v2/templates?perPage=1`; Documenso: `GET /api/v2/template?perPage=1`), and says so when
 * the server answers like the other one.
 */
export const signingApiTest = serviceCredentialTest(credentialProbeFor);
