import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { isHttpUrl } from './validation';

/**
 * What "Test credential" needs to know about one service: where to knock, how to show the
 * key, and how to recognise the service's own answers (so that another service, n8n itself
 * or a Base URL with an extra path is not mistaken for it).
 */
export interface ServiceProbe {
	/** "signing service" */
	service: string;
	/** "API token", "API key" */
	secretName: string;
	/** Where the key is made, for the refusal message. */
	secretHint: string;
	/** The API's prefix, which does not belong in the Base URL: "/api/v2". */
	apiPrefix: string;
	/** A cheap read that answers 2xx to a valid key: "/api/v2/templates?perPage=1". */
	probePath: string;
	headers(credentials: ICredentialDataDecryptedObject): Record<string, string>;
	/** The shape of the probe's 2xx answer, per the contract. */
	isServiceAnswer(body: unknown): boolean;
	/** The service's own 401 (each service words it differently), as opposed to another's. */
	isServiceRefusal(body: unknown): boolean;
}

const UNREACHABLE: Record<string, string> = {
	ECONNREFUSED: 'nothing accepts connections at that address and port',
	ENOTFOUND: 'the host name is unknown',
	EAI_AGAIN: 'the host name could not be looked up',
	ETIMEDOUT: 'the connection timed out',
	ECONNABORTED: 'the connection timed out',
	ECONNRESET: 'the connection was closed before an answer came',
	EHOSTUNREACH: 'the host is unreachable',
	ENETUNREACH: 'the network is unreachable',
	EPROTO: 'the TLS handshake failed (is it http rather than https?)',
};

export const isObject = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

function parseBody(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return body;
	}
}

/** The error code of a failed connection, wherever the HTTP client put it. */
function connectionErrorCode(error: unknown): string | undefined {
	for (let current = error, depth = 0; isObject(current) && depth < 4; current = current.cause, depth++) {
		const code = current.code;
		if (typeof code === 'string' && code !== '') return code;
	}
	return undefined;
}

/**
 * A credential test (`methods.credentialTest`, referenced by `testedBy`) that tells apart the
 * four ways the settings can be wrong, each with its own message: the Base URL is not an
 * http(s) URL, it cannot be reached, something answers there that is not this service (or
 * the URL has an extra path), or the service refused the key.
 */
export function serviceCredentialTest(probe: ServiceProbe) {
	return async function (
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		const data = credential.data ?? {};
		const rawBaseUrl = String(data.baseUrl ?? '').trim();
		if (!isHttpUrl(rawBaseUrl)) {
			return {
				status: 'Error',
				message: `The Base URL "${rawBaseUrl}" is not a valid http(s) URL: give the address of your ${probe.service}, starting with http:// or https://.`,
			};
		}
		const baseUrl = rawBaseUrl.replace(/\/+$/, '');
		const extraPath = new URL(baseUrl).pathname.replace(/\/+$/, '');
		const pathAdvice = extraPath.endsWith(probe.apiPrefix)
			? ` Remove ${probe.apiPrefix} from the end of the Base URL.`
			: extraPath !== ''
				? ` Check the path ${extraPath} in the Base URL: it is the address of the ${probe.service} itself, without ${probe.apiPrefix}.`
				: ` Check that the Base URL is the address of the ${probe.service}.`;

		// Credential tests get only this helper from n8n (ICredentialTestFunctions has no
		// httpRequest, and its `request` is not deprecated); n8n's own credential tests use it.
		// The lint rule that steers execute functions from `this.helpers.request` to httpRequest
		// has no replacement to offer here.
		const { helpers } = this;
		let response: { statusCode: number; body: unknown };
		try {
			response = (await helpers.request({
				method: 'GET',
				uri: `${baseUrl}${probe.probePath}`,
				headers: { accept: 'application/json', ...probe.headers(data) },
				json: true,
				simple: false,
				resolveWithFullResponse: true,
				timeout: 15_000,
			})) as { statusCode: number; body: unknown };
		} catch (error) {
			const code = connectionErrorCode(error);
			const reason =
				(code && UNREACHABLE[code]) ??
				(code?.includes('CERT') ? 'its TLS certificate is not trusted' : (code ?? (error as Error).message));
			return {
				status: 'Error',
				message: `Cannot reach ${baseUrl}: ${reason}. Check the Base URL and that the ${probe.service} is running and reachable from n8n.`,
			};
		}

		const { statusCode } = response;
		const body = parseBody(response.body);
		if (statusCode >= 200 && statusCode < 300 && probe.isServiceAnswer(body)) {
			return { status: 'OK', message: `Connected to the ${probe.service}` };
		}
		if ((statusCode === 401 && probe.isServiceRefusal(body)) || statusCode === 403) {
			return {
				status: 'Error',
				message: `The ${probe.service} refused the ${probe.secretName} (${statusCode}). ${probe.secretHint}`,
			};
		}
		if (statusCode === 429) {
			return {
				status: 'Error',
				message: `The ${probe.service} is rate limiting this key (429): the key was not checked. Try again in a minute.`,
			};
		}
		if (statusCode >= 500) {
			return {
				status: 'Error',
				message: `The server at ${baseUrl} failed (${statusCode}), so the ${probe.secretName} could not be checked. Try again later.`,
			};
		}
		return {
			status: 'Error',
			message: `Something answers at ${baseUrl}, but it is not the ${probe.service} API (GET ${probe.probePath} answered ${statusCode}${statusCode < 300 ? ' with an unexpected body' : ''}).${pathAdvice}`,
		};
	};
}
