/**
 * The Documenso flavour's demo templates: the signing seed's two templates as a Documenso team
 * would set them up. A template's recipients are its slots (numeric ids, a role, a placeholder
 * name and address); its prefillable fields are TEXT, NUMBER, DATE, CHECKBOX and DROPDOWN fields
 * with a label; every SIGNER has a SIGNATURE field, without which Documenso refuses to send
 * (getRecipientsWithMissingFields, packages/lib/utils/recipients.ts).
 */
import { daysAgo } from '../ids';
import {
	type Envelope,
	type Field,
	type FieldType,
	prefixedId,
	recipientToken,
	type Role,
} from './model';

export const DOCUMENSO_SEED = {
	residencyTemplateId: 1,
	ndaTemplateId: 2,
	/** Template recipient slots, by template. */
	slots: {
		applicant: 1,
		director: 2,
		partyA: 3,
		partyB: 4,
	},
	/** The prefillable fields' ids. */
	fields: {
		residency: { projectTitle: 1, stipend: 2, startDate: 3, housing: 4, studio: 5 },
		nda: { purpose: 8, termMonths: 9, effectiveDate: 10, mutual: 11, jurisdiction: 12 },
	},
	/** The first document id generate gives after a reset. */
	firstDocumentId: 1001,
} as const;

export interface SlotSpec {
	id: number;
	name: string;
	role: Role;
	/** The address the team gave the slot; Documenso's placeholder when absent. */
	email?: string;
	/** False for a signer the team gave no signature field (Documenso then refuses to send). */
	signatureField?: boolean;
}

/** The slots that get a signature field: every SIGNER and APPROVER unless told otherwise. */
export const signedSlots = <T extends Pick<SlotSpec, 'role' | 'signatureField'>>(slots: T[]) =>
	slots.filter(
		(slot) => (slot.role === 'SIGNER' || slot.role === 'APPROVER') && slot.signatureField !== false,
	);

/** A field of the first slot: one a document can prefill, or the signer's name or e-mail, which only the signer fills. */
export type Prefillable =
	| { id: number; type: 'TEXT' | 'NUMBER' | 'DATE'; label: string }
	| { id: number; type: 'CHECKBOX' | 'DROPDOWN'; label: string; options: string[] }
	| { id: number; type: 'NAME' | 'EMAIL'; label?: string };

const META_TYPE: Partial<Record<FieldType, string>> = {
	TEXT: 'text',
	NUMBER: 'number',
	DATE: 'date',
	CHECKBOX: 'checkbox',
	DROPDOWN: 'dropdown',
	NAME: 'name',
	EMAIL: 'email',
};

function fieldMeta(spec: Prefillable): Record<string, unknown> {
	const meta: Record<string, unknown> = { type: META_TYPE[spec.type] };
	if (spec.label !== undefined) meta.label = spec.label;
	if (spec.type === 'CHECKBOX') {
		meta.values = spec.options.map((value, index) => ({ id: index + 1, checked: false, value }));
		meta.direction = 'vertical';
	}
	if (spec.type === 'DROPDOWN') meta.values = spec.options.map((value) => ({ value }));
	return meta;
}

function field(
	id: number,
	recipientId: number,
	type: FieldType,
	meta: Record<string, unknown> | null,
): Field {
	return {
		id,
		secondaryId: `field_${id}`,
		recipientId,
		type,
		page: 1,
		positionX: 10,
		positionY: 10 + id * 5,
		width: 20,
		height: 5,
		customText: '',
		inserted: false,
		fieldMeta: meta,
	};
}

/** A template envelope: the first slot holds the prefillable fields, each signer a signature field. */
export function buildTemplate(spec: {
	id: number;
	title: string;
	days: number;
	slots: SlotSpec[];
	prefillable: Prefillable[];
	signatureFieldIds: number[];
	signingOrder?: 'PARALLEL' | 'SEQUENTIAL';
}): Envelope {
	const envelopeId = prefixedId('envelope');
	const signers = signedSlots(spec.slots);
	return {
		id: envelopeId,
		type: 'TEMPLATE',
		legacyId: spec.id,
		title: spec.title,
		status: 'DRAFT',
		source: 'DOCUMENT',
		externalId: null,
		templateId: null,
		formValues: null,
		createdAt: daysAgo(spec.days),
		updatedAt: daysAgo(spec.days / 2),
		completedAt: null,
		deletedAt: null,
		meta: {
			id: prefixedId('document_meta'),
			subject: null,
			message: null,
			redirectUrl: null,
			timezone: 'Etc/UTC',
			dateFormat: 'yyyy-MM-dd hh:mm a',
			language: 'en',
			distributionMethod: 'EMAIL',
			signingOrder: spec.signingOrder ?? 'PARALLEL',
		},
		recipients: spec.slots.map((slot, index) => ({
			id: slot.id,
			// Documenso's editor names new slots "Recipient n" at recipient.n@documenso.com; teams rename them.
			email: slot.email ?? `recipient.${index + 1}@documenso.com`,
			name: slot.name,
			token: recipientToken(),
			role: slot.role,
			readStatus: 'NOT_OPENED',
			signingStatus: 'NOT_SIGNED',
			sendStatus: 'NOT_SENT',
			signedAt: null,
			rejectionReason: null,
			signingOrder: index + 1,
			expiresAt: null,
			expirationNotifiedAt: null,
		})),
		fields: [
			...spec.prefillable.map((prefill) =>
				field(prefill.id, spec.slots[0].id, prefill.type, fieldMeta(prefill)),
			),
			...signers.map((slot, index) =>
				field(spec.signatureFieldIds[index], slot.id, 'SIGNATURE', null),
			),
		],
		item: {
			id: prefixedId('envelope_item'),
			title: spec.title,
			documentDataId: prefixedId('document_data'),
		},
		auditLogs: [],
	};
}

export function documensoSeedTemplates(): Envelope[] {
	const { slots, fields } = DOCUMENSO_SEED;
	return [
		buildTemplate({
			id: DOCUMENSO_SEED.residencyTemplateId,
			title: 'Residency agreement',
			days: 60,
			slots: [
				{ id: slots.applicant, name: 'Applicant', role: 'SIGNER' },
				{ id: slots.director, name: 'Director', role: 'APPROVER' },
			],
			prefillable: [
				{ id: fields.residency.projectTitle, type: 'TEXT', label: 'Project title' },
				{ id: fields.residency.stipend, type: 'NUMBER', label: 'Monthly stipend (EUR)' },
				{ id: fields.residency.startDate, type: 'DATE', label: 'Start date' },
				{
					id: fields.residency.housing,
					type: 'CHECKBOX',
					label: 'Housing included',
					options: ['Housing included'],
				},
				{
					id: fields.residency.studio,
					type: 'DROPDOWN',
					label: 'Studio',
					options: ['North studio', 'South studio', 'Print workshop'],
				},
			],
			signatureFieldIds: [6, 7],
		}),
		buildTemplate({
			id: DOCUMENSO_SEED.ndaTemplateId,
			title: 'Mutual non-disclosure agreement',
			days: 90,
			slots: [
				{ id: slots.partyA, name: 'Party A', role: 'SIGNER' },
				{ id: slots.partyB, name: 'Party B', role: 'SIGNER' },
			],
			prefillable: [
				{ id: fields.nda.purpose, type: 'TEXT', label: 'Purpose' },
				{ id: fields.nda.termMonths, type: 'NUMBER', label: 'Term (months)' },
				{ id: fields.nda.effectiveDate, type: 'DATE', label: 'Effective date' },
				{ id: fields.nda.mutual, type: 'CHECKBOX', label: 'Mutual', options: ['Mutual'] },
				{
					id: fields.nda.jurisdiction,
					type: 'DROPDOWN',
					label: 'Jurisdiction',
					options: ['England and Wales', 'Germany', 'New York'],
				},
			],
			signatureFieldIds: [13, 14],
		}),
	];
}
