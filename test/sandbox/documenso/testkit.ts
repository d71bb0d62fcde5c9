/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * What the Documenso flavour's contract tests share. All their waiting is here: they wait for
 * events (deliveries arriving, the deliverer going idle), each under one generous deadline that
 * only a hung sandbox reaches, never for a length of time.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { DOCUMENSO_SEED, type Sandbox, startSandbox } from '../index';
import { call, type Receiver } from '../testkit';

/** Far beyond any delivery on a loaded machine; reached only when something hangs. */
export const DEADLINE_MS = 60_000;

export const logger = process.env.SANDBOX_LOG === '1';

/**
 * Receiver answers that fail a little late, so that the next attempt starts in a later
 * millisecond and its `createdAt` must differ. The wait starts when the delivery arrives (the
 * receiver reads `after` then): waits started when the answers were scripted were used up by a
 * slow generate or sign, and two attempts could be stamped in the same millisecond.
 */
export const lateFailures = (statuses: number[]) =>
	statuses.map((status) => ({
		status,
		get after() {
			return sleep(5);
		},
	}));

/**
 * A Documenso after 1 March 2027 unless told otherwise: `all` for the contract of the deprecated
 * document and template routes as 2.17 serves them.
 */
export async function startDocumenso(
	documensoRoutes: 'after-march-2027' | 'all' | 'before-envelopes' = 'after-march-2027',
): Promise<Sandbox> {
	// No pause between attempts: Documenso's default (local) job runner retries at once too.
	return await startSandbox({ signing: 'documenso', documensoRoutes, ports: {}, logger, webhookRetryDelayMs: 0 });
}

/** HTTP helpers bound to a running Documenso flavour. */
export function documensoClient(sandbox: () => Sandbox) {
	const auth = (): Record<string, string> => ({
		authorization: `Bearer ${sandbox().signing.apiKey}`,
	});
	const url = (path: string) => `${sandbox().signing.url}${path}`;
	return {
		auth,
		url,
		get: async (path: string, headers: Record<string, string> = auth()) =>
			await call(url(path), { headers }),
		post: async (path: string, body: unknown, headers: Record<string, string> = auth()) =>
			await call(url(path), { method: 'POST', headers, body }),
		control: async (route: string, body?: unknown, method = 'POST') =>
			await call(url(`/_sandbox${route}`), { method, body }),
	};
}

export const ada = {
	id: DOCUMENSO_SEED.slots.applicant,
	email: 'ada@example.org',
	name: 'Ada Lovelace',
};
export const director = {
	id: DOCUMENSO_SEED.slots.director,
	email: 'director@example.org',
	name: 'Director',
};

/** The deliveries of one document (by its numeric id), once `count` have arrived. */
export async function eventsOf(receiver: Receiver, documentId: number, count: number) {
	const deadline = Date.now() + DEADLINE_MS;
	for (;;) {
		const bodies = receiver.received.filter((delivery) => delivery.body.payload?.id === documentId);
		if (bodies.length >= count) return bodies;
		if (Date.now() > deadline)
			throw new Error(`Expected ${count} deliveries of ${documentId}, got ${bodies.length}`);
		await receiver.waitFor(receiver.received.length + 1);
	}
}
