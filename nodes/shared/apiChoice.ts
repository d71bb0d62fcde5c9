import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * Which API a service's server speaks, chosen in its credential: the API this pack's
 * documentation describes (the default, and what the sandbox speaks), or a real platform's own.
 * Each service's adapter registry (adapterRegistry.ts) picks one adapter per API from it; nothing
 * else in a workflow changes when a user switches.
 */
export const DOCUMENTED_API = 'documented';

/** How the documented API is named in the credential: what it is for (this pack's sandbox, or a server made to its README). */
export const DOCUMENTED_API_LABEL = 'Documented API (the Sandbox, or a Server Built to the README)';

/** The API the credential chose; credentials saved before the option existed chose the documented one. */
export function chosenApi(credentials: ICredentialDataDecryptedObject): string {
	const api = credentials.api;
	return typeof api === 'string' && api !== '' ? api : DOCUMENTED_API;
}

/**
 * What "Test credential" says when the server answers like the API the user did not choose:
 * `like` names that API in a sentence ("Formbricks", "the documented survey API"), `label` is
 * its option in the credential.
 */
export function answersLikeOtherApi(label: string, like = label): string {
	return `This server answers like ${like}: choose "${label}" under API in this credential.`;
}
