import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { adapterRegistry } from '../../shared/adapterRegistry';
import type { ServiceProbe } from '../../shared/credentialTest';
import type { RequestContext } from '../../shared/request';
import { documensoAdapter } from './documenso';
import { documentedAdapter } from './documented';
import type { EventOption, SigningAdapter } from './types';

/** Every signing API the nodes speak, in the order the credential lists them: a new API is one more adapter here. */
export const signingApis = adapterRegistry<SigningAdapter>({ credentialType: 'signingApi', name: 'signing service' }, [
	documentedAdapter,
	documensoAdapter,
]);

/** The adapter for a credential's API. */
export function adapterFor(
	ctx: Pick<RequestContext, 'getNode'>,
	credentials: ICredentialDataDecryptedObject,
): SigningAdapter {
	return signingApis.adapterFor(ctx, credentials);
}

/** The probe of the credential's API, for "Test credential" (which has no node to name). */
export function credentialProbeFor(credentials: ICredentialDataDecryptedObject): ServiceProbe {
	return signingApis.credentialProbeFor(credentials);
}

/** The adapter of the node's Signing API credential. */
export async function signingAdapter(ctx: RequestContext, itemIndex?: number): Promise<SigningAdapter> {
	return await signingApis.ofRun(ctx, itemIndex);
}

/** Every API's own event names, by the trigger's name for them. */
const EVENT_ALIASES: Record<string, string> = Object.assign(
	{},
	...signingApis.adapters.map((adapter) => adapter.webhooks.eventAliases),
);

/**
 * An event name as the trigger's event list holds it: the documented names, which every API's
 * events are given under; an API's own names (Documenso's `DOCUMENT_SIGNED`) are taken too.
 */
export const documentedEventName = (event: string) => EVENT_ALIASES[event] ?? event;

/** The events only some APIs send, each named with its API ("Recipient Completed (Documenso)"). */
export const extraEventOptions: EventOption[] = signingApis.adapters.flatMap((adapter) =>
	adapter.webhooks.extraEvents.map((event) => ({ ...event, name: `${event.name} (${adapter.option.name})` })),
);

/** How to point each API's webhooks at the trigger, for its notice. */
export const webhookSetupNotices: string[] = signingApis.adapters.flatMap((adapter) =>
	adapter.webhooks.notice ? [adapter.webhooks.notice] : [],
);
