import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IDisplayOptions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { chosenApi, DOCUMENTED_API, DOCUMENTED_API_LABEL } from './apiChoice';
import type { OtherApiProbe, ServiceProbe } from './credentialTest';
import { perRun } from './perRun';
import type { RatePolicy } from './rateBudget';
import type { RequestContext } from './request';
import { serviceAnswer } from './request';
import { joinOr } from './text';

/**
 * What every API adapter of a service declares about itself, so that the service's registry can
 * offer it in the credential, test a credential of it, recognise a server that speaks it, and name
 * it in errors: adding a platform is one adapter (and its tests) added to the registry's list.
 */
export interface ApiAdapter {
	/** The credential's `api` value. */
	readonly api: string;
	/** The API's choice in the credential's API list. */
	readonly option: { name: string; description: string };
	/** The API in a sentence, where another API's error or test recognises it: "Documenso", "the documented signing API". */
	readonly like: string;
	/** The API where an operation is said to need it: "the Documenso API", "the documented API". */
	readonly apiName: string;
	/** Words for errors: "signing service", "Documenso server". */
	readonly serviceName: string;
	/** What "Test credential" asks this API, and how it recognises this API's own answers and refusals. */
	readonly credentialProbe: ServiceProbe;
	/** A read only this API answers in its own way, by which a server that speaks it is recognised. */
	readonly recognition: Pick<OtherApiProbe, 'probePath' | 'answersLikeIt'>;
	/** How this API's platform limits a key's requests; the contract's rule when not given. Paces that read too. */
	readonly rate?: RatePolicy;
}

/** The API named in errors and "Test credential" messages, with its choice in the credential. */
const asOtherApi = (adapter: ApiAdapter): OtherApiProbe => ({
	label: adapter.option.name,
	like: adapter.like,
	...adapter.recognition,
});

/** The option of the documented API, as every service's registry offers it first. */
export const documentedOption = (service: string) => ({
	name: DOCUMENTED_API_LABEL,
	description: `The ${service} API this node pack’s README describes (its sandbox speaks it)`,
});

/** Client errors that mean "no such route or parameter here" when a server speaks another API. */
const WRONG_API_STATUSES = new Set(['400', '404', '405']);

/** Refusals another API's recognition read may meet, which only mean "not that API". */
const PROBE_REFUSALS = [400, 401, 403, 404, 405];

/** One probe per run and API: many failing items of one run look once. */
const recognisedInRun = perRun<ApiAdapter | undefined>();

export interface AdapterRegistry<Adapter extends ApiAdapter> {
	readonly credentialType: string;
	readonly adapters: readonly Adapter[];
	/** The credential's "API" option, one choice per adapter. */
	apiOption(): INodeProperties;
	/**
	 * Shows a credential field only for the given APIs. Written as `hide` for the others: n8n 1.x's
	 * public API turns a `show` condition into a required field whenever `api` is left out, so a
	 * credential given with its URL and key alone would be refused.
	 */
	displayOnlyFor(apis: string[]): IDisplayOptions;
	/** The adapter of a credential's API; an unknown API (a credential of a newer version) is an error. */
	adapterFor(ctx: Pick<RequestContext, 'getNode'>, credentials: ICredentialDataDecryptedObject): Adapter;
	/** The adapter of the node's credential, read once per run of the node (every item of a run uses the same credential). */
	ofRun(ctx: RequestContext, itemIndex?: number): Promise<Adapter>;
	/** "Test credential"'s probe of the credential's API, knowing every other API it could be mistaken for. */
	credentialProbeFor(credentials: ICredentialDataDecryptedObject): ServiceProbe;
	/**
	 * An optional capability of the adapter (an operation only some APIs have), or, when the
	 * credential's API lacks it, the error that says which APIs have it: before anything is sent.
	 */
	capability<Key extends keyof Adapter>(
		ctx: Pick<RequestContext, 'getNode'>,
		adapter: Adapter,
		key: Key,
		operation: string,
		itemIndex?: number,
	): NonNullable<Adapter[Key]>;
	/**
	 * A failed request's error, with "this server answers like … : check API in the credential"
	 * added when the server turns out to speak another of the service's APIs.
	 */
	explainError(ctx: IExecuteFunctions, error: Error, itemIndex: number): Promise<Error>;
}

/** The adapters of one service, in the order its credential lists them (the documented API first). */
export function adapterRegistry<Adapter extends ApiAdapter>(
	service: { credentialType: string; name: string },
	adapters: readonly Adapter[],
): AdapterRegistry<Adapter> {
	const byApi = new Map(adapters.map((adapter) => [adapter.api, adapter]));
	const documented = byApi.get(DOCUMENTED_API) ?? adapters[0];
	const others = (adapter: Adapter) => adapters.filter((other) => other !== adapter);

	function adapterFor(ctx: Pick<RequestContext, 'getNode'>, credentials: ICredentialDataDecryptedObject): Adapter {
		const api = chosenApi(credentials);
		const adapter = byApi.get(api);
		if (adapter) return adapter;
		throw new NodeOperationError(ctx.getNode(), `The credential's API "${api}" is not known to this version of the node`, {
			description: `Choose one of ${adapters.map((known) => known.option.name).join(', ')} under API in the credential, or update this node package.`,
		});
	}

	/** The adapter picked in each run of a node (n8n makes a context per run). */
	const pickedByRun = perRun<Adapter>();

	async function ofRun(ctx: RequestContext, itemIndex?: number): Promise<Adapter> {
		return await pickedByRun(ctx, 'adapter', async () =>
			adapterFor(ctx, await ctx.getCredentials(service.credentialType, itemIndex)),
		);
	}

	/**
	 * The first other API whose recognition read the server answers as that API would, if any. The
	 * read goes the way every request goes (the key's rate budget, as that API's platform counts it,
	 * and the execution's cancel signal); a refusal or a failure only means "not that API".
	 */
	async function otherApiOfServer(ctx: IExecuteFunctions, adapter: Adapter): Promise<Adapter | undefined> {
		for (const other of others(adapter)) {
			const answer = await serviceAnswer(ctx, service.credentialType, other.serviceName, {
				method: 'GET',
				path: other.recognition.probePath,
				acceptStatuses: PROBE_REFUSALS,
				repeatable: true,
				timeoutMs: 10_000,
				rate: other.rate,
			}).catch(() => undefined);
			if (answer && other.recognition.answersLikeIt(answer)) return other;
		}
		return undefined;
	}

	/**
	 * A 401 of a node's run says which field of the credential to check and where the platform makes
	 * it, in the words "Test credential" uses for the same refusal (the adapter's `secretHint`).
	 */
	async function withKeyAdvice(ctx: IExecuteFunctions, error: NodeApiError, itemIndex: number): Promise<NodeApiError> {
		let adapter: Adapter;
		try {
			adapter = await ofRun(ctx, itemIndex);
		} catch {
			return error;
		}
		const advice = adapter.credentialProbe.secretHint;
		const description = error.description ?? '';
		if (!description.includes(advice)) error.description = description ? `${description.replace(/\.?$/, '.')} ${advice}` : advice;
		return error;
	}

	return {
		credentialType: service.credentialType,
		adapters,

		apiOption() {
			return {
				displayName: 'API',
				name: 'api',
				type: 'options',
				default: DOCUMENTED_API,
				options: adapters.map((adapter) => ({ value: adapter.api, ...adapter.option })),
				description: `Which API your ${service.name} speaks. "Test credential" tells you when the server answers like another one.`,
			};
		},

		displayOnlyFor(apis) {
			return { hide: { api: adapters.filter((adapter) => !apis.includes(adapter.api)).map((adapter) => adapter.api) } };
		},

		adapterFor,

		ofRun,

		credentialProbeFor(credentials) {
			const adapter = byApi.get(chosenApi(credentials)) ?? documented;
			return { ...adapter.credentialProbe, otherApis: others(adapter).map(asOtherApi) };
		},

		capability(ctx, adapter, key, operation, itemIndex) {
			const found = adapter[key];
			if (found !== undefined && found !== null) return found as NonNullable<Adapter[typeof key]>;
			const offering = adapters.filter((other) => other[key] !== undefined && other[key] !== null);
			throw new NodeOperationError(
				ctx.getNode(),
				`${operation} is available with ${joinOr(offering.map((other) => other.apiName))}; this credential uses ${adapter.apiName}`,
				{
					itemIndex,
					description: offering.length
						? `Your server speaks ${adapter.apiName}, which has no such operation. If it is ${joinOr(offering.map((other) => other.option.name))}, choose that under API in the credential.`
						: undefined,
				},
			);
		},

		async explainError(ctx, error, itemIndex) {
			if (error instanceof NodeApiError && String(error.httpCode) === '401') return await withKeyAdvice(ctx, error, itemIndex);
			if (!(error instanceof NodeApiError) || !WRONG_API_STATUSES.has(String(error.httpCode))) return error;
			let adapter: Adapter;
			try {
				adapter = await ofRun(ctx, itemIndex);
			} catch {
				return error;
			}
			const other = await recognisedInRun(ctx, adapter.api, async () => await otherApiOfServer(ctx, adapter).catch(() => undefined));
			if (!other) return error;
			const advice = `This server answers like ${other.like}: check API in the credential (choose "${other.option.name}")`;
			error.message = `${error.message}. ${advice}`;
			return error;
		},
	};
}
