import type { ICredentialDataDecryptedObject, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Which API a service's server speaks, chosen in its credential: the API this pack's
 * documentation describes (the default, and what the sandbox speaks), or a real platform's own
 * (Formbricks for surveys). Each node picks one adapter per API from it; nothing else in a
 * workflow changes when a user switches.
 */
export const DOCUMENTED_API = 'documented';

/** How the documented API is named in the credential, so that a user sees where it is described. */
export const DOCUMENTED_API_LABEL = 'Documented API (This Pack’s README)';

/** A real platform's own API, offered beside the documented one. */
export interface PlatformApi {
	/** The option's value, e.g. "formbricks". */
	value: string;
	/** The platform's name, e.g. "Formbricks". */
	name: string;
	/** What choosing it means, e.g. the versions checked. */
	description: string;
}

/** The credential's "API" option: the documented API or the platform's own. */
export function apiOption(service: string, platform: PlatformApi): INodeProperties {
	return {
		displayName: 'API',
		name: 'api',
		type: 'options',
		default: DOCUMENTED_API,
		options: [
			{
				name: DOCUMENTED_API_LABEL,
				value: DOCUMENTED_API,
				description: `The ${service} API this node pack’s README describes (its sandbox speaks it)`,
			},
			{ name: platform.name, value: platform.value, description: platform.description },
		],
		description: `Which API your ${service} speaks. "Test credential" tells you when the server answers like the other one.`,
	};
}

/** The API the credential chose; credentials saved before the option existed chose the documented one. */
export function chosenApi(credentials: ICredentialDataDecryptedObject): string {
	const api = credentials.api;
	return typeof api === 'string' && api !== '' ? api : DOCUMENTED_API;
}

/** The adapter for the credential's API. */
export function pickAdapter<Adapter>(
	node: INode,
	credentials: ICredentialDataDecryptedObject,
	adapters: Record<string, Adapter>,
): Adapter {
	const api = chosenApi(credentials);
	const adapter = adapters[api];
	if (adapter === undefined) {
		throw new NodeOperationError(node, `The credential's API "${api}" is not known to this version of the node`, {
			description: `Choose one of ${Object.keys(adapters).join(', ')} under API in the credential, or update this node package.`,
		});
	}
	return adapter;
}

/**
 * What "Test credential" says when the server answers like the API the user did not choose:
 * `like` names that API in a sentence ("Formbricks", "the documented survey API"), `label` is
 * its option in the credential.
 */
export function answersLikeOtherApi(label: string, like = label): string {
	return `This server answers like ${like}: choose "${label}" under API in this credential.`;
}

/** Adapters already picked in one run of a node, keyed by its context (n8n makes one per run) and credential type. */
const pickedByRun = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * The adapter of the node's credential of `credentialType`, read once per run of the node:
 * every item of a run uses the same credential.
 */
export async function adapterOfRun<Adapter>(
	ctx: {
		getNode(): INode;
		getCredentials(type: string, itemIndex?: number): Promise<ICredentialDataDecryptedObject>;
	},
	credentialType: string,
	adapters: Record<string, Adapter>,
	itemIndex?: number,
): Promise<Adapter> {
	let run = pickedByRun.get(ctx);
	if (!run) pickedByRun.set(ctx, (run = new Map()));
	let picked = run.get(credentialType) as Promise<Adapter> | undefined;
	if (!picked) {
		picked = ctx
			.getCredentials(credentialType, itemIndex)
			.then((credentials) => pickAdapter(ctx.getNode(), credentials, adapters));
		// A failed read is not kept: the next item may try again.
		picked.catch(() => run.delete(credentialType));
		run.set(credentialType, picked);
	}
	return await picked;
}
