import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { deleteUnlessGone } from '../../shared/alreadyGone';
import type { RequestContext, ServiceRequest } from '../../shared/request';
import { withDescription } from '../../shared/request';
import { perRun } from '../../shared/perRun';
import { licensedRequest, request, v1, workspaceIdOf } from './formbricksRequest';
import { formbricksLicensedError } from './formbricksShapes';
import { indexRanges } from '../../shared/text';
import { invalidInput } from '../../shared/validation';
import { type Contact, type ContactsCapability, type ContactToWrite, type ContactWriteReport, contactsWrittenBeforeFailure } from './types';

/*
 * Formbricks' contacts (b66c1dd; an Enterprise feature: without the licence every route here but
 * the v2 attribute key routes answers 403). Reads are v1's, which lists whole tables without paging
 * or filters: `GET /api/v1/management/contacts` (rows without attributes), `…/contact-attributes`
 * (every value of every contact, by key id) and `…/contact-attribute-keys`; the node joins them.
 * Writes are v2's: `POST /api/v2/management/contacts` (one; every key must exist, an e-mail already
 * there is a 409), `PUT /api/v2/management/contacts/bulk` (≤ 250, matched by e-mail: created or
 * updated, keys created as needed), `POST /api/v2/management/contact-attribute-keys`. Delete is
 * v1's `DELETE /api/v1/management/contacts/{id}`, which the v1 spec omits; Formbricks deletes the
 * contact's responses with it (`onDelete: Cascade`).
 */

/** `ZContactBulkUploadRequest`: at most 250 contacts a request. */
const BULK_SIZE = 250;

/** The field whose keys a contact's attributes come under, as the form shows it. */
const ATTRIBUTES_LABEL = 'Custom Attributes';

/** Keys a new attribute may have (`isSafeIdentifier`, apps/web/lib/utils/safe-identifier.ts). */
const SAFE_KEY = /^[a-z][a-z0-9_]*$/;
/** Keys kept for Formbricks 5.1's defaults (apps/web/modules/ee/contacts/lib/attribute-key-policy.ts). */
const RESERVED_KEYS = new Set(['user_id', 'first_name', 'last_name']);

/** The name Formbricks gives a key created without one (`formatSnakeCaseToTitleCase`). */
const titleCase = (key: string) =>
	key
		.split('_')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');


const keysOfRun = perRun<Map<string, IDataObject>>();
const attributesOfRun = perRun<IDataObject[]>();

/** The key's attribute keys by key (`email`, `firstName`, …), read once per run. */
async function attributeKeyMap(ctx: RequestContext, itemIndex?: number): Promise<Map<string, IDataObject>> {
	return await keysOfRun(ctx, 'keys', async () => {
		const { data } = await licensedRequest<{ data: IDataObject[] }>(ctx, {
			method: 'GET',
			path: '/api/v1/management/contact-attribute-keys',
			itemIndex,
		});
		const workspaceId = await workspaceIdOf(ctx, itemIndex);
		// A key reaching several workspaces lists all their keys: only the credential's workspace's count.
		return new Map(data.filter((key) => key.workspaceId === workspaceId).map((key) => [String(key.key), key]));
	});
}

/** Every attribute value of the key's workspaces (one v1 table read). */
async function readAttributes(ctx: RequestContext, itemIndex?: number): Promise<IDataObject[]> {
	const { data } = await licensedRequest<{ data: IDataObject[] }>(ctx, {
		method: 'GET',
		path: '/api/v1/management/contact-attributes',
		itemIndex,
	});
	return data;
}

/** The attributes of each contact, by key, from the attribute table. */
function attributesByContact(rows: IDataObject[], keys: Map<string, IDataObject>): Map<string, Record<string, string>> {
	const keyById = new Map([...keys.values()].map((key) => [String(key.id), String(key.key)]));
	const byContact = new Map<string, Record<string, string>>();
	for (const row of rows) {
		const key = keyById.get(String(row.attributeKeyId));
		if (key === undefined) continue;
		const contactId = String(row.contactId);
		if (!byContact.has(contactId)) byContact.set(contactId, {});
		byContact.get(contactId)![key] = String(row.value);
	}
	return byContact;
}

async function contactAttributes(ctx: RequestContext, itemIndex?: number): Promise<Map<string, Record<string, string>>> {
	const [rows, keys] = await Promise.all([
		attributesOfRun(ctx, 'attributes', async () => await readAttributes(ctx, itemIndex)),
		attributeKeyMap(ctx, itemIndex),
	]);
	return attributesByContact(rows, keys);
}

const withAttributes = (contact: IDataObject, attributes: Map<string, Record<string, string>>): Contact => ({
	...contact,
	id: String(contact.id),
	attributes: attributes.get(String(contact.id)) ?? {},
});

/** The rule by which Formbricks would refuse to create this key ("may hold only …"); undefined when it may. */
function newKeyProblem(key: string): string | undefined {
	if (!SAFE_KEY.test(key)) return 'may hold only lowercase letters, digits and underscores, starting with a letter';
	if (RESERVED_KEYS.has(key)) return 'is reserved by Formbricks for a default attribute';
	return undefined;
}

/** A key a contact cannot be written with, in words; undefined when the workspace has it or Formbricks can create it. */
function keyProblem(key: string, known: Map<string, IDataObject>): string | undefined {
	if (known.has(key)) return undefined;
	const problem = newKeyProblem(key);
	return problem && `the workspace has no attribute key "${key}", and a new key ${problem}`;
}

async function createKey(
	ctx: IExecuteFunctions,
	key: { key: string; name?: string; description?: string; dataType?: string },
	itemIndex: number,
): Promise<IDataObject> {
	const workspaceId = await workspaceIdOf(ctx, itemIndex);
	const { data } = await request<{ data: IDataObject }>(ctx, {
		method: 'POST',
		path: '/api/v2/management/contact-attribute-keys',
		// Formbricks requires `name` and `description`, null allowed; its spec also lists the
		// deprecated `environmentId` as required, which Formbricks reads only without `workspaceId`.
		body: {
			workspaceId,
			environmentId: workspaceId,
			key: key.key,
			name: key.name ?? null,
			description: key.description ?? null,
			...(key.dataType ? { dataType: key.dataType } : {}),
		},
		itemIndex,
	});
	(await attributeKeyMap(ctx, itemIndex)).set(String(data.key), data);
	return data;
}

/** Refusals that concern one contact of a bulk, judged before anything is sent. */
function bulkRefusals(contacts: ContactToWrite[], known: Map<string, IDataObject>): Array<string | undefined> {
	const firstWith = new Map<string, number>();
	return contacts.map(({ attributes, itemIndex }) => {
		const problems = Object.keys(attributes)
			.map((key) => keyProblem(key, known))
			.filter(Boolean);
		if (problems.length > 0) return problems.join('; ');
		// Formbricks refuses the whole request when two contacts share an e-mail or a user ID.
		for (const key of ['email', 'userId']) {
			const value = attributes[key];
			if (!value) continue;
			const earlier = firstWith.get(`${key}\n${value}`);
			if (earlier !== undefined) return `The same ${key === 'email' ? 'e-mail address' : 'user ID'} as item ${earlier} of this run`;
		}
		for (const key of ['email', 'userId']) {
			if (attributes[key]) firstWith.set(`${key}\n${attributes[key]}`, itemIndex);
		}
		return undefined;
	});
}

/** `PUT /api/v2/management/contacts/bulk` for one batch: the indexes (in the batch) Formbricks skipped. */
async function sendBulk(
	ctx: IExecuteFunctions,
	workspaceId: string,
	batch: Array<Record<string, string>>,
	known: Map<string, IDataObject>,
	itemIndex: number,
): Promise<Map<number, string>> {
	// Each key goes with its current name: Formbricks renames a key to the name a bulk upload gives it.
	const contacts = batch.map((attributes) => ({
		attributes: Object.entries(attributes).map(([key, value]) => ({
			attributeKey: { key, name: String(known.get(key)?.name ?? titleCase(key)) },
			value,
		})),
	}));
	const { data } = await licensedRequest<{ data: IDataObject }>(ctx, {
		method: 'PUT',
		path: '/api/v2/management/contacts/bulk',
		body: { workspaceId, contacts },
		itemIndex,
	});
	// A partial upload (207) lists the contacts whose user ID another contact has, under `data.meta`.
	const meta = (data.meta ?? {}) as IDataObject;
	const skipped = Array.isArray(meta.skippedContacts) ? (meta.skippedContacts as IDataObject[]) : [];
	return new Map(skipped.map((entry) => [Number(entry.index), String(entry.userId ?? '')]));
}

const sameAttributes = (wanted: Record<string, string>, current: Record<string, string> | undefined) =>
	current !== undefined && Object.entries(wanted).every(([key, value]) => current[key] === value);

export const formbricksContacts: ContactsCapability = {
	async list(ctx, itemIndex) {
		const { data } = await licensedRequest<{ data: IDataObject[] }>(ctx, { method: 'GET', path: '/api/v1/management/contacts', itemIndex });
		const workspaceId = await workspaceIdOf(ctx, itemIndex);
		const attributes = await contactAttributes(ctx, itemIndex);
		return data.filter((contact) => contact.workspaceId === workspaceId).map((contact) => withAttributes(contact, attributes));
	},

	async get(ctx, contactId, itemIndex) {
		const { data } = await licensedRequest<{ data: IDataObject }>(ctx, {
			method: 'GET',
			path: `/api/v1/management/contacts/${encodeURIComponent(contactId)}`,
			itemIndex,
		});
		return withAttributes(data, await contactAttributes(ctx, itemIndex));
	},

	async create(ctx, attributes, { createMissingKeys, itemIndex }) {
		const known = await attributeKeyMap(ctx, itemIndex);
		const missing = Object.keys(attributes).filter((key) => !known.has(key));
		const problems = missing.map((key) => keyProblem(key, known)).filter(Boolean);
		if (problems.length > 0) {
			throw withDescription(
				ctx,
				invalidInput(ctx, itemIndex, ATTRIBUTES_LABEL, problems.join('; ')),
				itemIndex,
				'Contact Attribute Key → Get Many lists the keys of the workspace.',
			);
		}
		if (missing.length > 0 && !createMissingKeys) {
			throw withDescription(
				ctx,
				invalidInput(ctx, itemIndex, ATTRIBUTES_LABEL, `the workspace has no attribute key ${missing.map((key) => `"${key}"`).join(', ')}`),
				itemIndex,
				'Or create the keys first (Contact Attribute Key → Create), or switch on "Create Missing Attribute Keys".',
			);
		}
		for (const key of missing) await createKey(ctx, { key, name: titleCase(key) }, itemIndex);
		const workspaceId = await workspaceIdOf(ctx, itemIndex);
		const { data } = await licensedRequest<{ data: IDataObject }>(ctx, {
			method: 'POST',
			path: '/api/v2/management/contacts',
			body: { workspaceId, attributes },
			itemIndex,
			errorHints: {
				409: 'Formbricks keeps one contact per e-mail address (and per user ID). Contact → Create Many updates existing contacts instead',
			},
		});
		return { ...data, id: String(data.id), attributes: (data.attributes ?? {}) as Record<string, string> };
	},

	async upsertMany(ctx, contacts, itemIndex) {
		const known = await attributeKeyMap(ctx, itemIndex);
		const workspaceId = await workspaceIdOf(ctx, itemIndex);
		const refusals = bulkRefusals(contacts, known);
		const emailKey = known.get('email');
		const before = await contactAttributes(ctx, itemIndex);
		const contactByEmail = new Map([...before].map(([contactId, attributes]) => [attributes.email, contactId]));
		const reports: ContactWriteReport[] = contacts.map((_, index) =>
			refusals[index] ? { status: 'refused', contactId: null, reason: refusals[index] } : { status: 'created', contactId: null },
		);
		const toSend = contacts.map(({ attributes }, index) => ({ attributes, index })).filter(({ index }) => !refusals[index]);
		/** The input items whose contacts earlier batches wrote. */
		const written: number[] = [];
		// The ids of the contacts created: the bulk route answers none, the attribute table has them.
		const fillCreatedIds = async (of: Array<ContactWriteReport | undefined>) => {
			if (!of.some((report) => report?.status === 'created') || !emailKey) return;
			const rows = await readAttributes(ctx, itemIndex);
			const created = new Map(
				rows.filter((row) => row.attributeKeyId === emailKey.id).map((row) => [String(row.value), String(row.contactId)]),
			);
			of.forEach((report, index) => {
				if (report?.status === 'created') report.contactId = created.get(contacts[index].attributes.email) ?? null;
			});
		};
		for (let start = 0; start < toSend.length; start += BULK_SIZE) {
			const batch = toSend.slice(start, start + BULK_SIZE);
			let skipped: Map<number, string>;
			try {
				skipped = await sendBulk(ctx, workspaceId, batch.map((entry) => entry.attributes), known, itemIndex);
			} catch (error) {
				// A refusal of this batch's contents is its contacts'; anything else stops the run,
				// with what the batches before it did in the error.
				const status = error instanceof NodeApiError ? Number(error.httpCode) : 0;
				if (status === 400 || status === 409 || status === 422) {
					for (const { index } of batch) reports[index] = { status: 'refused', contactId: null, reason: (error as Error).message };
					continue;
				}
				const failure = withDescription(
					ctx,
					error as Error,
					itemIndex,
					written.length > 0
						? `The contacts of item${written.length > 1 ? 's' : ''} ${indexRanges(written)} of this run were written before this failure.`
						: undefined,
				);
				const unwritten = new Set(toSend.slice(start).map((entry) => entry.index));
				const known = reports.map((report, index) => (unwritten.has(index) ? undefined : report));
				// The written contacts' ids, if the service still answers; else they stay unknown (null).
				await fillCreatedIds(known).catch(() => undefined);
				contactsWrittenBeforeFailure.set(failure, known);
				throw failure;
			}
			batch.forEach(({ attributes, index }, position) => {
				const existing = contactByEmail.get(attributes.email);
				if (skipped.has(position)) {
					reports[index] = {
						status: 'skipped',
						contactId: existing ?? null,
						reason: `Another contact has the user ID "${skipped.get(position)}"`,
					};
					return;
				}
				written.push(contacts[index].itemIndex);
				if (existing !== undefined) {
					reports[index] = { status: sameAttributes(attributes, before.get(existing)) ? 'unchanged' : 'updated', contactId: existing };
				}
			});
		}
		await fillCreatedIds(reports);
		return reports;
	},

	async delete(ctx, contactId, itemIndex) {
		const send = async (options: ServiceRequest) => await v1.answer(ctx, { readError: formbricksLicensedError, ...options });
		const { alreadyGone } = await deleteUnlessGone(ctx, itemIndex, send, {
			method: 'DELETE',
			path: `/api/v1/management/contacts/${encodeURIComponent(contactId)}`,
		});
		return { alreadyGone };
	},

	async attributeKeys(ctx, itemIndex) {
		return [...(await attributeKeyMap(ctx, itemIndex)).values()];
	},

	async createAttributeKey(ctx, key, itemIndex) {
		const problem = newKeyProblem(key.key);
		if (problem) throw invalidInput(ctx, itemIndex, 'Key', `"${key.key}" ${problem}`);
		return await createKey(ctx, key, itemIndex);
	},
};
