import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { adapterRegistry } from '../../shared/adapterRegistry';
import type { ServiceProbe } from '../../shared/credentialTest';
import type { RequestContext } from '../../shared/request';
import { documentedAdapter } from './documented';
import { formbricksAdapter } from './formbricks';
import type { SurveyAdapter } from './types';

/** Every survey API the nodes speak, in the order the credential lists them: a new API is one more adapter here. */
export const surveyApis = adapterRegistry<SurveyAdapter>({ credentialType: 'surveyApi', name: 'survey service' }, [
	documentedAdapter,
	formbricksAdapter,
]);

/** The adapter for a credential's API. */
export function adapterFor(
	ctx: Pick<RequestContext, 'getNode'>,
	credentials: ICredentialDataDecryptedObject,
): SurveyAdapter {
	return surveyApis.adapterFor(ctx, credentials);
}

/** The probe of the credential's API, for "Test credential" (which has no node to name). */
export function credentialProbeFor(credentials: ICredentialDataDecryptedObject): ServiceProbe {
	return surveyApis.credentialProbeFor(credentials);
}

/** The adapter of the node's Survey API credential. */
export async function surveyAdapter(ctx: RequestContext, itemIndex?: number): Promise<SurveyAdapter> {
	return await surveyApis.ofRun(ctx, itemIndex);
}
