import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, timingSafeEqual } from 'crypto';
import type { IHookFunctions, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/** Compares two secrets in time independent of where they differ, and of their lengths. */
export function secretsMatch(received: string, expected: string): boolean {
	const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
	return timingSafeEqual(digest(received), digest(expected));
}

function reject(ctx: IWebhookFunctions, status: number, reason: string): IWebhookResponseData {
	ctx.getResponseObject().status(status).json({ message: reason }).end();
	return { noWebhookResponse: true };
}

export function rejectUnauthorized(ctx: IWebhookFunctions, reason: string): IWebhookResponseData {
	return reject(ctx, 401, reason);
}

export function rejectBadRequest(ctx: IWebhookFunctions, reason: string): IWebhookResponseData {
	return reject(ctx, 400, reason);
}

/** The optional "Webhook Secret" of the node's credential; empty when there is none. */
export async function credentialWebhookSecret(ctx: IWebhookFunctions, credentialType: string): Promise<string> {
	if (!ctx.getNode().credentials?.[credentialType]) return '';
	const credentials = await ctx.getCredentials(credentialType);
	return typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
}

/** Acknowledges a delivery that must start nothing (an unselected event, a redelivery). */
export const ACKNOWLEDGE_ONLY: IWebhookResponseData = { webhookResponse: 'OK' };

/** Longer delivery ids are remembered by their SHA-256, so one id costs a bounded number of bytes. */
export const MAX_DELIVERY_ID_LENGTH = 128;

export interface RecentDeliveriesLimits {
	maxAgeMs: number;
	maxEntries: number;
	/** Approximate bytes held by ids and scopes, across all scopes. */
	maxBytes: number;
	/** A delivery whose answer never came is treated as not started after this long. */
	maxInFlightMs: number;
}

const DEFAULT_LIMITS: RecentDeliveriesLimits = {
	maxAgeMs: 24 * 60 * 60 * 1000,
	maxEntries: 10_000,
	maxBytes: 4 * 1024 * 1024,
	maxInFlightMs: 60_000,
};

/** Bytes a string key costs in V8 (two per character at worst) plus the map entry. */
const ENTRY_OVERHEAD_BYTES = 96;

interface Entry {
	scope: string;
	at: number;
	bytes: number;
	/** Set while the delivery waits for n8n to start its execution. */
	inFlight?: { settled: Promise<boolean>; settle: (started: boolean) => void };
}

export type Admission =
	/** A new delivery: it is now in flight; call `settle` once it is known whether n8n started it. */
	| { status: 'new'; settle: (started: boolean) => void }
	/** Started before: acknowledge and start nothing. */
	| { status: 'done' }
	/** Another attempt of it is waiting for n8n; `settled` tells whether that one started. */
	| { status: 'inFlight'; settled: Promise<boolean> };

export function boundedDeliveryId(deliveryId: string): string {
	return deliveryId.length <= MAX_DELIVERY_ID_LENGTH
		? deliveryId
		: `sha256:${createHash('sha256').update(deliveryId, 'utf8').digest('hex')}`;
}

/**
 * Delivery ids seen recently, per workflow, node and webhook URL (test and production
 * apart). n8n does not reliably keep what a webhook writes to static data while it starts
 * an execution, and reads and writes static data whole, so concurrent deliveries would
 * overwrite each other; an in-process store has neither problem. It covers one n8n
 * process and is lost on restart. An id counts as seen only once n8n has started the
 * execution: until then it is in flight, and a delivery n8n failed to start is forgotten,
 * so that the service's retry runs.
 */
export class RecentDeliveries {
	/** Insertion (or confirmation) order: the oldest entries come first. */
	private readonly entries = new Map<string, Entry>();
	private bytes = 0;
	private readonly limits: RecentDeliveriesLimits;

	constructor(limits: Partial<RecentDeliveriesLimits> = {}) {
		this.limits = { ...DEFAULT_LIMITS, ...limits };
	}

	get size(): number {
		return this.entries.size;
	}

	get approximateBytes(): number {
		return this.bytes;
	}

	admit(scope: string, deliveryId: string, now = Date.now()): Admission {
		const key = `${scope}\n${boundedDeliveryId(deliveryId)}`;
		const existing = this.entries.get(key);
		if (existing) {
			const age = now - existing.at;
			if (existing.inFlight && age <= this.limits.maxInFlightMs) {
				return { status: 'inFlight', settled: existing.inFlight.settled };
			}
			if (!existing.inFlight && age <= this.limits.maxAgeMs) return { status: 'done' };
			this.remove(key, existing);
		}

		let settle: (started: boolean) => void = () => {};
		const settled = new Promise<boolean>((resolve) => (settle = resolve));
		const entry: Entry = { scope, at: now, bytes: key.length * 2 + ENTRY_OVERHEAD_BYTES, inFlight: { settled, settle } };
		this.entries.set(key, entry);
		this.bytes += entry.bytes;
		this.prune(now);

		let done = false;
		return {
			status: 'new',
			settle: (started: boolean) => {
				if (done) return;
				done = true;
				if (this.entries.get(key) === entry) {
					if (started) {
						// Re-inserted, so that the map stays ordered by the time an id became seen.
						this.entries.delete(key);
						entry.at = Date.now();
						delete entry.inFlight;
						this.entries.set(key, entry);
					} else {
						this.remove(key, entry);
					}
				}
				settle(started);
			},
		};
	}

	/** Drops a scope's ids, e.g. when its trigger is removed; other scopes keep theirs. */
	forget(scope: string): void {
		for (const [key, entry] of this.entries) if (entry.scope === scope) this.remove(key, entry);
	}

	private remove(key: string, entry: Entry): void {
		this.entries.delete(key);
		this.bytes -= entry.bytes;
		// Anyone waiting on an evicted delivery may run it: nothing says it started.
		entry.inFlight?.settle(false);
	}

	private prune(now: number): void {
		for (const [key, entry] of this.entries) {
			const tooMany = this.entries.size > this.limits.maxEntries || this.bytes > this.limits.maxBytes;
			const expired = now - entry.at > (entry.inFlight ? this.limits.maxInFlightMs : this.limits.maxAgeMs);
			if (!tooMany && !expired) break;
			this.remove(key, entry);
		}
	}
}

export const recentDeliveries = new RecentDeliveries();

/**
 * The redelivery scope of a trigger: its workflow, its node and its webhook URL, which
 * differs between "Listen for test event" and the active workflow, so that ending a test
 * does not touch what the production trigger remembers.
 */
export function deliveryScope(ctx: IWebhookFunctions | IHookFunctions): string {
	return `${ctx.getWorkflow().id ?? 'unsaved'}:${ctx.getNode().id}:${ctx.getNodeWebhookUrl('default') ?? ''}`;
}

/** How long a redelivery waits for another attempt of it that n8n is still starting. */
const IN_FLIGHT_WAIT_MS = 2_000;

interface ResponseEvents {
	once(event: 'close', listener: () => void): unknown;
	headersSent: boolean;
	statusCode: number;
}

/**
 * Decides whether a delivery starts an execution: `undefined` when it does (the caller
 * returns its items), otherwise the answer to give. The delivery id is confirmed only when
 * n8n answers the delivery with a 2xx, which it does (response mode "On Received") after
 * it started the execution; when n8n answers an error instead, or the connection closes
 * before n8n answered, the id is forgotten so that a redelivery runs.
 */
export async function admitDelivery(
	ctx: IWebhookFunctions,
	deliveryId: string,
	store: RecentDeliveries = recentDeliveries,
): Promise<IWebhookResponseData | undefined> {
	const outcome = await admitDeliveries(ctx, [deliveryId], store);
	return 'answer' in outcome ? outcome.answer : undefined;
}

/**
 * `admitDelivery` for a delivery that stands for several events, each with its own id (a
 * Documenso signing delivery can show two signers): the ids not started before, now in flight
 * together until n8n answers, for the caller to emit; or, when there is none, the answer to give.
 */
export async function admitDeliveries(
	ctx: IWebhookFunctions,
	deliveryIds: string[],
	store: RecentDeliveries = recentDeliveries,
): Promise<{ admitted: string[] } | { answer: IWebhookResponseData }> {
	const scope = deliveryScope(ctx);
	for (;;) {
		const admitted: Array<{ deliveryId: string; settle: (started: boolean) => void }> = [];
		const inFlight: Array<Promise<boolean>> = [];
		for (const deliveryId of deliveryIds) {
			const admission = store.admit(scope, deliveryId);
			if (admission.status === 'new') admitted.push({ deliveryId, settle: admission.settle });
			if (admission.status === 'inFlight') inFlight.push(admission.settled);
		}
		if (admitted.length > 0) {
			const response = ctx.getResponseObject() as unknown as ResponseEvents;
			response.once('close', () => {
				const { headersSent, statusCode } = response;
				for (const { settle } of admitted) settle(headersSent && statusCode >= 200 && statusCode < 300);
			});
			return { admitted: admitted.map(({ deliveryId }) => deliveryId) };
		}
		if (inFlight.length === 0) return { answer: ACKNOWLEDGE_ONLY };
		const oneNotStarted = new Promise<'retry'>((resolve) => {
			for (const settled of inFlight) void settled.then((started) => !started && resolve('retry'));
		});
		const outcome = await Promise.race([
			oneNotStarted,
			Promise.all(inFlight).then((started) => (started.every(Boolean) ? 'started' : 'retry')),
			sleep(IN_FLIGHT_WAIT_MS).then(() => 'undecided'),
		]);
		if (outcome === 'started') return { answer: ACKNOWLEDGE_ONLY };
		if (outcome === 'undecided') {
			// Not a 2xx: the service tries again later, by when the first attempt has settled.
			return {
				answer: reject(ctx, 409, 'An earlier attempt of this delivery is still being started; try again later'),
			};
		}
	}
}

/**
 * `work`'s result when it comes within `ms`, else `{ late: true }`: for a trigger that must answer
 * before its sender gives up, or an activation that must not hang on a service that is gone. The
 * work goes on; a failure after the deadline is nobody's, one before it is thrown.
 */
export async function withinDeadline<T>(
	work: Promise<T>,
	ms: number,
): Promise<{ late: false; value: T } | { late: true }> {
	const stopWaiting = new AbortController();
	work.catch(() => undefined);
	const late = { late: true as const };
	try {
		return await Promise.race([
			work.then((value) => ({ late: false as const, value })),
			// Older n8n versions' sleep ignores the signal and resolves later: the race is over by then.
			sleep(ms, stopWaiting.signal).then(
				() => late,
				() => late,
			),
		]);
	} finally {
		stopWaiting.abort();
	}
}

/** The body's exact bytes as received, for signatures and for body-based redelivery detection. */
export function rawBodyOf(ctx: IWebhookFunctions): Buffer {
	const request = ctx.getRequestObject() as { rawBody?: Buffer | string; body?: unknown };
	if (Buffer.isBuffer(request.rawBody)) return request.rawBody;
	if (typeof request.rawBody === 'string') return Buffer.from(request.rawBody, 'utf8');
	return Buffer.from(JSON.stringify(request.body ?? {}), 'utf8');
}

export function sha256Hex(value: Buffer | string): string {
	return createHash('sha256').update(value).digest('hex');
}

const SEALED_PREFIX = 'v1';

function sealingKey(keyMaterial: string, context: string): Buffer {
	return Buffer.from(hkdfSync('sha256', keyMaterial, 'n8n-nodes-sign-survey-bookmark hook secret', context, 32));
}

/**
 * Encrypts a secret for the workflow's static data (AES-256-GCM), with a key derived from
 * a credential's secret (which n8n keeps encrypted) and bound to `context`, e.g. the
 * hook's id. Whoever reads the workflow (its JSON, an export, the public API) sees only
 * ciphertext.
 */
export function sealSecret(secret: string, keyMaterial: string, context: string): string {
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', sealingKey(keyMaterial, context), iv);
	const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
	return [SEALED_PREFIX, ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64'))].join('.');
}

/**
 * Secrets a trigger opened with `openSecret` in this process, by what they were opened from, so
 * that a delivery does not read the credential again: reading it is a database query, and with
 * every delivery it slows n8n's intake (issue 17). The key holds the sealed value itself, so a
 * hook registered anew (a new sealed value) is opened anew. Bounded: the oldest go first.
 */
export class OpenedSecrets {
	private readonly secrets = new Map<string, string>();

	constructor(private readonly maxEntries = 1_000) {}

	get(key: string): string | undefined {
		return this.secrets.get(key);
	}

	set(key: string, secret: string): void {
		this.secrets.delete(key);
		this.secrets.set(key, secret);
		for (const oldest of this.secrets.keys()) {
			if (this.secrets.size <= this.maxEntries) break;
			this.secrets.delete(oldest);
		}
	}
}

/** The secret `sealSecret` encrypted, or undefined when the key material or context differ. */
export function openSecret(sealed: string, keyMaterial: string, context: string): string | undefined {
	const [prefix, iv, tag, ciphertext] = sealed.split('.');
	if (prefix !== SEALED_PREFIX || !iv || !tag || ciphertext === undefined) return undefined;
	try {
		const decipher = createDecipheriv('aes-256-gcm', sealingKey(keyMaterial, context), Buffer.from(iv, 'base64'));
		decipher.setAuthTag(Buffer.from(tag, 'base64'));
		return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
	} catch {
		return undefined;
	}
}

/**
 * The webhook lifecycle of a trigger whose service has no registration API (the user adds the
 * URL in the service): activation has nothing to create remotely; deactivation forgets the
 * deliveries this URL remembered.
 */
export const MANUAL_REGISTRATION_WEBHOOK_METHODS = {
	default: {
		async checkExists(this: IHookFunctions): Promise<boolean> {
			return true;
		},
		async create(this: IHookFunctions): Promise<boolean> {
			return true;
		},
		async delete(this: IHookFunctions): Promise<boolean> {
			recentDeliveries.forget(deliveryScope(this));
			return true;
		},
	},
};
