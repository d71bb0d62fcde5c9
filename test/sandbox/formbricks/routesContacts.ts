/**
 * Formbricks' contacts (an Enterprise feature: `getIsContactsEnabled`, apps/web/modules/ee/license-check/lib/utils.ts)
 * and the personal survey links made for them, as its source answers (b66c1dd). Registered inside
 * the `/api` plugin. Without a licence the licence-checking routes refuse with 403: v1
 * `{code: "forbidden", message: "Contacts are only enabled for Enterprise Edition, please upgrade."}`,
 * v2 `{error: {code: 403, message: "Forbidden"}}` (`handleApiError` drops a 403's details). The v2
 * contact attribute key routes do not check the licence.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod/v4';

import { v1, v2 } from './errors';
import { expirationDate, personalLink } from './links';
import type { AttributeKeyRow, ContactRow, Workspace } from './records';
import { checkId } from './routesV1';
import { datesInOrder, filterAndPage, parse, queryObject, refuseUnread, resolveWorkspace, ZGetFilter } from './routesV2';
import type { FormbricksStore } from './store';

export interface ContactRouteOptions {
	/** Whether the server has an Enterprise licence with the Contacts feature. */
	licensed: () => boolean;
}

const LICENCE_MESSAGE = 'Contacts are only enabled for Enterprise Edition, please upgrade.';

/** `isSafeIdentifier` (apps/web/lib/utils/safe-identifier.ts): what a new attribute key may be. */
export const isSafeIdentifier = (value: string) => /^[a-z][a-z0-9_]*$/.test(value);

/** `RESERVED_FUTURE_DEFAULT_ATTRIBUTE_SAFE_IDENTIFIER_KEYS` (apps/web/modules/ee/contacts/lib/attribute-key-policy.ts). */
const RESERVED_KEYS = ['user_id', 'first_name', 'last_name'];
const isReserved = (key: string) => RESERVED_KEYS.includes(key.trim().toLowerCase());
const reservedIssue = (keys: string[]) =>
	`Reserved attribute key(s): ${[...new Set(keys.map((key) => key.trim().toLowerCase()))].join(', ')}. These keys are reserved for the v5.1 safe-identifier default attribute migration and cannot be created as custom attributes.`;

/** `formatSnakeCaseToTitleCase`: the name Formbricks gives a key created without one. */
const titleCase = (key: string) =>
	key
		.split('_')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');

/** `ZContactCreateRequest` (apps/web/modules/ee/contacts/types/contact.ts). */
const ZContactCreateRequest = z.object({
	workspaceId: z.cuid2(),
	attributes: z.record(z.string(), z.string()).superRefine((attributes, ctx) => {
		const email = attributes.email;
		if (!email) ctx.addIssue({ code: 'custom', message: 'Email attribute is required' });
		else if (!z.email().safeParse(email).success) ctx.addIssue({ code: 'custom', message: 'Invalid email format' });
	}),
});

const ZBulkAttribute = z.object({ attributeKey: z.object({ key: z.string(), name: z.string() }), value: z.string() });

/** `ZContactBulkUploadRequest`, its checks in its order. */
const ZContactBulkUploadRequest = z.object({
	workspaceId: z.cuid2(),
	contacts: z
		.array(z.object({ attributes: z.array(ZBulkAttribute) }))
		.max(250, { error: 'Maximum 250 contacts allowed at a time.' })
		.superRefine((contacts, ctx) => {
			const seenEmails = new Set<string>();
			const duplicateEmails = new Set<string>();
			const seenUserIds = new Set<string>();
			const duplicateUserIds = new Set<string>();
			contacts.forEach((contact, index) => {
				const email = contact.attributes.find((attribute) => attribute.attributeKey.key === 'email');
				if (!email?.value) {
					ctx.addIssue({ code: 'custom', message: `Email attribute is required for contact at index ${index}` });
				} else if (!z.email().safeParse(email.value).success) {
					ctx.addIssue({ code: 'custom', message: `Invalid email format for contact at index ${index}` });
				} else if (seenEmails.has(email.value)) duplicateEmails.add(email.value);
				else seenEmails.add(email.value);
				const userId = contact.attributes.find((attribute) => attribute.attributeKey.key === 'userId');
				if (userId?.value) {
					if (seenUserIds.has(userId.value)) duplicateUserIds.add(userId.value);
					else seenUserIds.add(userId.value);
				}
				const keys = contact.attributes.map((attribute) => attribute.attributeKey.key);
				const duplicateKeys = keys.filter((key, position) => keys.indexOf(key) !== position);
				if (duplicateKeys.length > 0) {
					ctx.addIssue({
						code: 'custom',
						message: `Duplicate attribute keys found for contact at index ${index}. Please ensure each attribute key is unique`,
						params: { duplicateKeys: [...new Set(duplicateKeys)], contactIndex: index },
					});
				}
			});
			if (duplicateEmails.size > 0) {
				ctx.addIssue({
					code: 'custom',
					message: 'Duplicate emails found in the records, please ensure each email is unique.',
					params: { duplicateEmails: [...duplicateEmails] },
				});
			}
			if (duplicateUserIds.size > 0) {
				ctx.addIssue({
					code: 'custom',
					message: 'Duplicate userIds found in the records, please ensure each userId is unique.',
					params: { duplicateUserIds: [...duplicateUserIds] },
				});
			}
		}),
});

const safeKeyRefinement = (data: { key: string }, ctx: z.RefinementCtx) => {
	if (!isSafeIdentifier(data.key)) {
		ctx.addIssue({
			code: 'custom',
			message: 'Key must be a safe identifier: only lowercase letters, numbers, and underscores, and must start with a letter',
			path: ['key'],
		});
	}
	if (isReserved(data.key)) ctx.addIssue({ code: 'custom', message: reservedIssue([data.key]), path: ['key'] });
};

/** `ZContactAttributeKeyCreateInput` (apps/web/modules/api/v2/management/contact-attribute-keys/types/contact-attribute-keys.ts): `name` and `description` may be null, not absent. */
const ZContactAttributeKeyCreateInput = z
	.object({
		key: z.string(),
		name: z.string().nullable(),
		description: z.string().nullable(),
		workspaceId: z.cuid2(),
		dataType: z.enum(['string', 'number', 'date']).optional(),
	})
	.superRefine(safeKeyRefinement);

const ZContactLinkParams = z.object({ surveyId: z.cuid2(), contactId: z.cuid2() });
const ZContactLinkQuery = z.object({ expirationDays: z.coerce.number().int().min(1).max(365).optional() });
const ZSegmentLinkParams = z.object({ surveyId: z.cuid2(), segmentId: z.cuid2() });
const ZSegmentLinkQuery = ZGetFilter.pick({ limit: true, skip: true }).extend({
	expirationDays: z.coerce.number().min(1).max(365).nullish().prefault(null),
	attributeKeys: z
		.string()
		.optional()
		.refine((fields) => !fields || fields.split(',').length <= 20, 'You can have max 20 keys.'),
});

const params = (request: FastifyRequest) => request.params as Record<string, string>;

/**
 * A v2 write's body as `authenticatedApiClient` reads it: unread fields refused (the flavour's
 * strictness), the workspace resolved with the method's permission (`bodyTransform` with
 * `resolveBodyIdsV2`), then the route's schema.
 */
function writeBody<T>(
	store: FormbricksStore,
	request: FastifyRequest,
	method: string,
	schema: z.ZodType<T>,
	read: string[],
): { workspace: Workspace; input: T } {
	const body = (request.body ?? {}) as Record<string, unknown>;
	refuseUnread(body, read);
	const workspace = resolveWorkspace(store, body, method);
	return { workspace, input: parse(schema, { ...body, workspaceId: workspace.id }) };
}

export function registerContactRoutes(api: FastifyInstance, store: FormbricksStore, options: ContactRouteOptions): void {
	const v1Licence = () => {
		if (!options.licensed()) throw v1.other(403, LICENCE_MESSAGE);
	};
	const v2Licence = () => {
		if (!options.licensed()) throw v2(403);
	};
	const inKeyWorkspaces = <T extends { workspaceId: string }>(rows: Iterable<T>) => {
		const workspaces = new Set(store.workspaceIds());
		return [...rows].filter((row) => workspaces.has(row.workspaceId));
	};

	// apps/web/modules/ee/contacts/api/v1/management/contacts/route.ts: every contact of the key's
	// workspaces (`prisma.contact.findMany`), the rows alone: no attributes, no paging, no filter.
	api.get('/v1/management/contacts', async () => {
		v1Licence();
		return { data: inKeyWorkspaces(store.contacts.values()) };
	});

	// …/contacts/[contactId]/route.ts: the licence, the id (`validateInputs`), the contact, the permission.
	const findContact = (request: FastifyRequest, method: string): ContactRow => {
		v1Licence();
		const contactId = params(request).contactId;
		checkId(contactId);
		const contact = store.contacts.get(contactId);
		if (!contact) throw v1.notFound('Contact', contactId);
		if (!store.can(method, contact.workspaceId)) throw v1.unauthorized();
		return contact;
	};

	api.get('/v1/management/contacts/:contactId', async (request) => ({ data: findContact(request, 'GET') }));

	// Not in the v1 spec (spec.ts: UNDOCUMENTED_ROUTES); its responses and attributes go with it.
	api.delete('/v1/management/contacts/:contactId', async (request) => {
		const contact = findContact(request, 'DELETE');
		store.deleteContact(contact.id);
		return { data: { success: 'Contact deleted successfully' } };
	});

	// …/contact-attributes/route.ts: every value of every contact of the key's workspaces, as rows.
	api.get('/v1/management/contact-attributes', async () => {
		v1Licence();
		const keys = new Set(inKeyWorkspaces(store.attributeKeys).map((key) => key.id));
		return { data: store.attributes.filter((attribute) => keys.has(attribute.attributeKeyId)) };
	});

	// …/contact-attribute-keys/route.ts (v1): every key of the key's workspaces.
	api.get('/v1/management/contact-attribute-keys', async () => {
		v1Licence();
		return { data: inKeyWorkspaces(store.attributeKeys) };
	});

	// apps/web/modules/api/v2/management/contact-attribute-keys/route.ts: paged, with the total; no licence check.
	api.get('/v2/management/contact-attribute-keys', async (request) => {
		const filter = parse(ZGetFilter.refine(datesInOrder, { message: 'startDate must be before endDate' }), queryObject(request));
		const { page, total } = filterAndPage(inKeyWorkspaces(store.attributeKeys), filter);
		return { data: page, meta: { total, limit: filter.limit, offset: filter.skip } };
	});

	api.post('/v2/management/contact-attribute-keys', async (request, reply) => {
		const { workspace, input } = writeBody(store, request, 'POST', ZContactAttributeKeyCreateInput, [
			'key',
			'name',
			'description',
			'workspaceId',
			'environmentId',
			'dataType',
		]);
		if (store.attributeKey(workspace.id, input.key)) {
			throw v2(409, [{ field: 'contactAttributeKey', issue: `Contact attribute key with "${input.key}" already exists` }]);
		}
		const key = store.addAttributeKey({
			key: input.key,
			name: input.name ?? titleCase(input.key),
			description: input.description,
			dataType: input.dataType,
			workspaceId: workspace.id,
		});
		return await reply.code(201).send({ data: key });
	});

	// apps/web/modules/ee/contacts/api/v2/management/contacts/route.ts and lib/contact.ts.
	api.post('/v2/management/contacts', async (request, reply) => {
		const { workspace, input } = writeBody(store, request, 'POST', ZContactCreateRequest, ['workspaceId', 'environmentId', 'attributes']);
		const { attributes } = input;
		v2Licence();
		if (store.contactWith(workspace.id, 'email', attributes.email)) {
			throw v2(409, [{ field: 'email', issue: 'contact with this email already exists' }]);
		}
		if (attributes.userId && store.contactWith(workspace.id, 'userId', attributes.userId)) {
			throw v2(409, [{ field: 'userId', issue: 'contact with this userId already exists' }]);
		}
		const missing = Object.keys(attributes).filter((key) => !store.attributeKey(workspace.id, key));
		if (missing.length > 0) {
			throw v2(400, [{ field: 'attributes', issue: `attribute keys not found: ${missing.join(', ')}. ` }]);
		}
		const contact = store.addContact(workspace.id);
		for (const [key, value] of Object.entries(attributes)) {
			store.setAttribute(contact.id, store.attributeKey(workspace.id, key)!, value);
		}
		return await reply.code(201).send({
			data: { id: contact.id, createdAt: contact.createdAt, workspaceId: workspace.id, attributes: store.attributesOf(contact.id) },
		});
	});

	// apps/web/modules/ee/contacts/api/v2/management/contacts/bulk/route.ts and lib/contact.ts
	// (`upsertBulkContacts`): contacts matched by e-mail are updated, others created; keys not yet
	// in the workspace are created with the names given, and existing keys take the names given.
	api.put('/v2/management/contacts/bulk', async (request, reply) => {
		const { workspace, input } = writeBody(store, request, 'PUT', ZContactBulkUploadRequest, ['workspaceId', 'environmentId', 'contacts']);
		const { contacts } = input;
		v2Licence();
		const keysGiven = [...new Set(contacts.flatMap((contact) => contact.attributes.map((attribute) => attribute.attributeKey.key)))];
		const existingKeys = new Map(keysGiven.flatMap((key) => {
			const row = store.attributeKey(workspace.id, key);
			return row ? [[key, row] as const] : [];
		}));
		const invalid = keysGiven.filter((key) => !existingKeys.has(key) && !isSafeIdentifier(key));
		if (invalid.length > 0) {
			throw v2(400, [
				{
					field: 'attributes',
					issue: `Invalid attribute key(s): ${invalid.join(', ')}. Keys must only contain lowercase letters, numbers, and underscores, and must start with a letter.`,
				},
			]);
		}
		const reserved = keysGiven.filter((key) => !existingKeys.has(key) && isReserved(key));
		if (reserved.length > 0) throw v2(400, [{ field: 'attributes', issue: reservedIssue(reserved) }]);
		// `validateAndAdjustAttributeTypes`: values of an existing number or date key must parse as one.
		const typeErrors = [...existingKeys.values()].flatMap((key) => typeError(key, contacts));
		if (typeErrors.length > 0) throw v2(400, typeErrors.map((issue) => ({ field: 'attributes', issue })));

		const skipped: Array<{ index: number; userId?: string }> = [];
		const writes: Array<{ contactId?: string; attributes: typeof contacts[number]['attributes'] }> = [];
		contacts.forEach((contact, index) => {
			const email = contact.attributes.find((attribute) => attribute.attributeKey.key === 'email')!.value;
			const userId = contact.attributes.find((attribute) => attribute.attributeKey.key === 'userId')?.value;
			const existing = store.contactWith(workspace.id, 'email', email);
			const userIdTaken = (value: string | undefined) => value !== undefined && store.contactWith(workspace.id, 'userId', value) !== undefined;
			if (existing) {
				const current = store.attributesOf(existing.id);
				const changed = contact.attributes.filter((attribute) => current[attribute.attributeKey.key] !== attribute.value);
				if (changed.length === 0) return;
				const changedUserId = changed.find((attribute) => attribute.attributeKey.key === 'userId')?.value;
				if (userIdTaken(changedUserId)) {
					skipped.push({ index, userId: changedUserId });
					return;
				}
				writes.push({ contactId: existing.id, attributes: changed });
			} else {
				if (userIdTaken(userId)) {
					skipped.push({ index, userId });
					return;
				}
				writes.push({ attributes: contact.attributes });
			}
		});
		// `collectAttributeKeyChanges` over the contacts written: missing keys created, names updated.
		for (const attribute of writes.flatMap((write) => write.attributes)) {
			const { key, name } = attribute.attributeKey;
			const row = store.attributeKey(workspace.id, key);
			if (!row) store.addAttributeKey({ key, name, workspaceId: workspace.id, dataType: detectType(key, contacts) });
			else if (row.name !== name) {
				row.name = name;
				row.updatedAt = new Date().toISOString();
			}
		}
		for (const write of writes) {
			const contactId = write.contactId ?? store.addContact(workspace.id).id;
			for (const attribute of write.attributes) {
				store.setAttribute(contactId, store.attributeKey(workspace.id, attribute.attributeKey.key)!, attribute.value);
			}
		}
		if (skipped.length > 0) {
			return await reply.code(207).send({
				data: {
					status: 'success',
					message: 'Contacts bulk upload partially successful. Some contacts were skipped due to conflicting userIds.',
					meta: { skippedContacts: skipped },
				},
			});
		}
		return { data: { status: 'success', message: 'Contacts bulk upload successful' } };
	});

	// apps/web/modules/api/v2/management/surveys/[surveyId]/contact-links/contacts/[contactId]/route.ts,
	// checks in its order. The spec writes the path with a trailing slash; Next.js serves it without.
	api.get('/v2/management/surveys/:surveyId/contact-links/contacts/:contactId', async (request) => {
		const { surveyId, contactId } = parse(ZContactLinkParams, request.params);
		const { expirationDays } = parse(ZContactLinkQuery, queryObject(request));
		const survey = store.surveys.get(surveyId);
		if (!survey) throw v2(404, [{ field: 'survey', issue: 'not found' }]);
		if (!store.can('GET', survey.workspaceId)) throw v2(401);
		v2Licence();
		if (survey.type !== 'link') throw v2(400, [{ field: 'surveyId', issue: 'Not a link survey' }]);
		const contact = store.contacts.get(contactId);
		if (!contact || contact.workspaceId !== survey.workspaceId) throw v2(404, [{ field: 'contact', issue: 'not found' }]);
		if (store.responsesOf(surveyId).some((response) => response.contactId === contactId)) {
			throw v2(400, [{ field: 'contactId', issue: 'Already responded' }]);
		}
		return {
			data: {
				surveyUrl: personalLink(store.urls.publicUrl, survey as never, contactId, expirationDays),
				expiresAt: expirationDays ? expirationDate(expirationDays) : null,
			},
		};
	});

	// …/contact-links/segments/[segmentId]/route.ts and lib/contact.ts (`getContactsInSegment`).
	api.get('/v2/management/surveys/:surveyId/contact-links/segments/:segmentId', async (request) => {
		const { surveyId, segmentId } = parse(ZSegmentLinkParams, request.params);
		const query = parse(ZSegmentLinkQuery, queryObject(request));
		const survey = store.surveys.get(surveyId);
		// `getOrganizationIdFromSurveyId` throws ResourceNotFoundError, which has no `type`: a 500.
		if (!survey) {
			throw v2(500, [{ field: 'error', issue: 'An error occurred while processing your request. Please try again later.' }]);
		}
		v2Licence();
		if (!store.can('GET', survey.workspaceId)) throw v2(401);
		if (survey.type !== 'link' || survey.status !== 'inProgress') throw v2(403);
		const segment = store.segments.get(segmentId);
		if (!segment) throw v2(404, [{ field: 'segment', issue: 'not found' }]);
		if (segment.workspaceId !== survey.workspaceId) throw v2(400, [{ field: 'segmentId', issue: 'Environment mismatch' }]);
		const known = new Set(inKeyWorkspaces(store.attributeKeys).filter((key) => key.workspaceId === segment.workspaceId).map((key) => key.key));
		const included = (query.attributeKeys ?? '')
			.split(',')
			.map((key) => key.trim())
			.filter((key) => known.has(key))
			.slice(0, 20);
		const members = store.contactsInSegment(segment);
		const page = members.slice(query.skip, query.skip + query.limit);
		const expiresAt = query.expirationDays ? expirationDate(query.expirationDays) : null;
		return {
			data: page.map((contact) => {
				const all = store.attributesOf(contact.id);
				const attributes = Object.fromEntries(included.filter((key) => key in all).map((key) => [key, all[key]]));
				return {
					contactId: contact.id,
					...(Object.keys(attributes).length > 0 ? { attributes } : {}),
					surveyUrl: personalLink(store.urls.publicUrl, survey as never, contact.id, query.expirationDays ?? undefined),
					expiresAt,
				};
			}),
			meta: { total: members.length, limit: query.limit, offset: query.skip },
		};
	});
}

type BulkContacts = Array<{ attributes: z.infer<typeof ZBulkAttribute>[] }>;

/** The non-empty values a bulk upload gives a key (`buildAttributeValuesByKey`). */
const valuesOf = (key: string, contacts: BulkContacts) =>
	contacts.flatMap((contact) =>
		contact.attributes.filter((attribute) => attribute.attributeKey.key === key && attribute.value.trim() !== '').map((attribute) => attribute.value),
	);

/** `findInvalidValues` for an existing typed key: the values that do not parse as its type. */
function typeError(key: AttributeKeyRow, contacts: BulkContacts): string[] {
	if (key.dataType === 'string') return [];
	const values = valuesOf(key.key, contacts);
	const invalid = values.filter((value) => (key.dataType === 'number' ? Number.isNaN(Number(value)) : Number.isNaN(Date.parse(value))));
	if (invalid.length === 0) return [];
	const more = invalid.length - 3;
	return [`Attribute "${key.key}" is typed as "${key.dataType}" but received invalid values: ${invalid.slice(0, 3).join(', ')}${more > 0 ? ` (and ${more} more)` : ''}`];
}

/** `detectAttributeDataType` on a new key's first value, kept as text unless every value agrees. */
function detectType(key: string, contacts: BulkContacts): AttributeKeyRow['dataType'] {
	const values = valuesOf(key, contacts);
	if (values.length > 0 && values.every((value) => /^-?\d+(\.\d+)?$/.test(value.trim()))) return 'number';
	if (values.length > 0 && values.every((value) => /^\d{4}-\d{2}-\d{2}/.test(value.trim()) && !Number.isNaN(Date.parse(value)))) return 'date';
	return 'string';
}
