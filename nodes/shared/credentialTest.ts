import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { answersLikeOtherApi } from './apiChoice';
import { isHttpUrl } from './validation';

/** One answer of the server to a probe. */
export interface ProbeAnswer {
	statusCode: number;
	body: unknown;
}

/** Another request to the same server with the same key, for checks that need a second look. */
export type ProbeGet = (path: string) => Promise<ProbeAnswer>;

/**
 * The other API a server may speak (the documented one, or a platform's own), told apart by a
 * probe of its own, so that "Test credential" can say "choose the other API" instead of "wrong
 * Base URL".
 */
export interface OtherApiProbe {
	/** The other API's option in the credential, e.g. "Formbricks". */
	label: string;
	/** The other API in a sentence, e.g. "the documented survey API"; the label when absent. */
	like?: string;
	/** A read that only that API answers in its own way. */
	probePath: string;
	answersLikeIt(answer: ProbeAnswer): boolean;
}

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
	/** The other APIs the server may speak instead (the registry adds them); asked when the answer is not clearly this API's. */
	otherApis?: OtherApiProbe[];
	/** A 2xx answer of this API that the other API could give too (an empty list): the other probe decides. */
	isAmbiguous?(body: unknown): boolean;
	/** Answers with a meaning of their own for this API, decided before the generic checks (may look again with `get`). */
	settle?(
		answer: ProbeAnswer,
		credentials: ICredentialDataDecryptedObject,
		get: ProbeGet,
	): Promise<INodeCredentialTestResult | undefined>;
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
export function serviceCredentialTest(
	probeFor: ServiceProbe | ((credentials: ICredentialDataDecryptedObject) => ServiceProbe),
) {
	return async function (
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		const data = credential.data ?? {};
		const probe = typeof probeFor === 'function' ? probeFor(data) : probeFor;
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
		const get: ProbeGet = async (path) => {
			const answer = (await helpers.request({
				method: 'GET',
				uri: `${baseUrl}${path}`,
				headers: { accept: 'application/json', ...probe.headers(data) },
				json: true,
				simple: false,
				resolveWithFullResponse: true,
				timeout: 15_000,
			})) as ProbeAnswer;
			return { statusCode: answer.statusCode, body: parseBody(answer.body) };
		};
		let response: ProbeAnswer;
		try {
			response = await get(probe.probePath);
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

		const { statusCode, body } = response;
		const settled = await probe.settle?.(response, data, get);
		if (settled) return settled;
		const serviceAnswer = statusCode >= 200 && statusCode < 300 && probe.isServiceAnswer(body);
		if (serviceAnswer && !probe.isAmbiguous?.(body)) {
			return { status: 'OK', message: `Connected to the ${probe.service}` };
		}
		if (statusCode !== 401 && statusCode !== 403 && statusCode !== 429 && statusCode < 500) {
			for (const otherApi of probe.otherApis ?? []) {
				const other = await get(otherApi.probePath).catch(() => undefined);
				if (other && otherApi.answersLikeIt(other)) {
					return { status: 'Error', message: answersLikeOtherApi(otherApi.label, otherApi.like) };
				}
			}
		}
		if (serviceAnswer) return { status: 'OK', message: `Connected to the ${probe.service}` };
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
