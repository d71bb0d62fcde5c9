import { serviceCredentialTest } from '../shared/credentialTest';
import { credentialProbeFor } from './adapters';

/**
 * "Test credential" for the Survey API: asks the API the credential chose (the documented API:
 * `GET /api/v1/management/surveys`; Formbricks: `GET /api/v1/management/me`), and says so when
 * the server answers like the other one.
 */
export const surveyApiTest = serviceCredentialTest(credentialProbeFor);
