/**
 * The Bookmarks Webhook Trigger fails closed on a credential it cannot read: an API this version of
 * the node does not know (a credential saved by a later version) is refused with 401 and a reason,
 * not a 500 from the error the adapter registry throws. Deliveries on Karakeep: test/karakeep/webhookTrigger.test.ts.
 */
import { BookmarksWebhookTrigger } from '../../nodes/Bookmarks/BookmarksWebhookTrigger.node';
import { callWebhook } from './helpers/context';

test('a credential whose API is unknown: 401 with the reason, and a warning that says what to do', async () => {
	const outcome = await callWebhook(new BookmarksWebhookTrigger().webhook, {
		headers: { authorization: 'Bearer token' },
		body: { jobId: '1', bookmarkId: 'b1', userId: 'u1', operation: 'created' },
		parameters: { events: ['created'] },
		credentials: { bookmarkApi: { api: 'from-a-later-version', baseUrl: 'http://127.0.0.1:9', apiKey: 'key', webhookToken: 'token' } },
	});
	expect(outcome.status).toBe(401);
	expect(JSON.stringify(outcome.responseBody)).toContain('This trigger’s credential names an API this version of the node does not know');
	expect(outcome.warnings).toEqual([expect.stringContaining('The credential\'s API "from-a-later-version" is not known to this version of the node')]);
	expect(outcome.result).toEqual({ noWebhookResponse: true });
});
