import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { adapterRegistry } from '../../shared/adapterRegistry';
import type { ServiceProbe } from '../../shared/credentialTest';
import type { RequestContext } from '../../shared/request';
import { documentedAdapter } from './documented';
import { karakeepAdapter } from './karakeep';
import type { BookmarkAdapter, BookmarkWebhooks } from './types';

/** Every bookmark API the nodes speak, in the order the credential lists them: a new API is one more adapter here. */
export const bookmarkApis = adapterRegistry<BookmarkAdapter>({ credentialType: 'bookmarkApi', name: 'bookmark service' }, [
	documentedAdapter,
	karakeepAdapter,
]);

/** The adapter of a credential's API (the documented one for a credential saved before the option existed). */
export function adapterFor(ctx: Pick<RequestContext, 'getNode'>, credentials: ICredentialDataDecryptedObject): BookmarkAdapter {
	return bookmarkApis.adapterFor(ctx, credentials);
}

/** The probe of the credential's API, for "Test credential" (which has no node to name). */
export function credentialProbeFor(credentials: ICredentialDataDecryptedObject): ServiceProbe {
	return bookmarkApis.credentialProbeFor(credentials);
}

/** The adapter of the node's Bookmark API credential. */
export async function bookmarkAdapter(ctx: RequestContext, itemIndex?: number): Promise<BookmarkAdapter> {
	return await bookmarkApis.ofRun(ctx, itemIndex);
}

/** The APIs that send webhooks, for the Bookmarks Webhook Trigger. */
const webhookApis = bookmarkApis.adapters.filter(
	(adapter): adapter is BookmarkAdapter & { webhooks: BookmarkWebhooks } => adapter.webhooks !== undefined,
);

/** Every event some API sends, once each (the Bookmarks Webhook Trigger's Events). */
export const webhookEventOptions: BookmarkWebhooks['events'] = webhookApis
	.flatMap((adapter) => adapter.webhooks.events)
	.filter((event, index, events) => events.findIndex((other) => other.value === event.value) === index)
	.sort((a, b) => a.name.localeCompare(b.name));
