import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { OutputPrivacy } from '../shared/privacy';
import { personalDataOptions } from '../shared/privacy';
import type { FieldGuide, Kind } from '../shared/redaction';
import { kindOfFieldName, kindOfHeadline } from '../shared/redaction';
import type { RequestContext } from '../shared/request';
import type { ToolConsent } from '../shared/toolConsent';
import { toolConsentProperty } from '../shared/toolConsent';
import { getTemplate } from './resources/template/locator';

/*
 * Personal data in the Signing node's output: recipients' names and e-mail addresses, the audit
 * log's e-mails, IP addresses and user agents (by field name), titles, messages and rejection
 * reasons (free text, scanned), and prefilled and signed-in values, judged by their field's label
 * or, for a signer's name, e-mail, initials and signature, its type.
 */

export const PERSONAL_DATA_DESCRIPTION =
	'What to do with recipients’ names and e-mail addresses, the audit log’s e-mails, IP addresses and user agents, and personal data in titles, messages, prefilled fields and rejection reasons. Without this option: kept as they are, but redacted when the node runs as an AI agent tool.';

/** The Signing Trigger's Options: the same personal data in the event's document, kept unless chosen otherwise. */
export const signingTriggerPersonalDataOptions = personalDataOptions(
	undefined,
	'What to do with recipients’ names and e-mail addresses, and personal data in the title, the invitation’s subject and message, rejection reasons, prefilled fields (by their label, read from the template through the credential; without it every prefilled value counts as personal) and the PDF form’s values (Documenso, by their names). Without this option: kept as they are.',
);

/** The Options of the operations that have no other option and return personal data. */
export const signingPersonalDataOptions: INodeProperties[] = [
	personalDataOptions(
		{ resource: ['document'], operation: ['get', 'getMany', 'send', 'download', 'getAuditLog', 'update', 'duplicate'] },
		PERSONAL_DATA_DESCRIPTION,
	),
	personalDataOptions(
		{ resource: ['template'], operation: ['get', 'getMany', 'update', 'duplicate'] },
		PERSONAL_DATA_DESCRIPTION,
	),
	personalDataOptions({ resource: ['recipient'] }, PERSONAL_DATA_DESCRIPTION),
];

/** Operations that cancel a document or e-mail its recipients act for an agent only with the author's consent. */
export const SIGNING_TOOL_CONSENT = { name: 'allowAsTool' } as const;
export const consentTo = (action: string): ToolConsent => ({ ...SIGNING_TOOL_CONSENT, action });

export const signingToolConsentProperty = toolConsentProperty(
	consentTo(''),
	{
		resource: ['attachment', 'document', 'recipient', 'field', 'file', 'template', 'folder'],
		operation: [
			'add',
			'cancel',
			'create',
			'createFromFile',
			'delete',
			'duplicate',
			'generateFromTemplate',
			'rejectOnBehalf',
			'remove',
			'resend',
			'send',
			'update',
		],
	},
	'Whether an AI agent may create, cancel, reject or delete documents or e-mail their recipients (Create From File, Recipient → Reject on Behalf, Send, Resend, Generate From Template with Send Now on) when this node is its tool. Off: as a tool, such an operation refuses and nothing is sent.',
);

/** The labels of the prefilled fields of the documents' templates; a template that cannot be read adds none. */
async function prefillLabels(
	ctx: RequestContext,
	records: IDataObject[],
): Promise<Map<string, string>> {
	const labels = new Map<string, string>();
	// Only where a prefilled value comes without its label, as on the documented API, whose document
	// fields are the template's. Documenso's carry their label, and a document made from a template
	// gets fields of its own, with new numeric ids (create-document-from-template.ts): its template's
	// fields could not say which is which, so its template is not read.
	const templateIds = new Set(
		records
			.filter(
				(record) =>
					Array.isArray(record.prefillFields) &&
					(record.prefillFields as IDataObject[]).some((field) => labelOf(field) === undefined),
			)
			.map((record) => record.templateId)
			.filter((id): id is string => typeof id === 'string' && id !== ''),
	);
	for (const templateId of templateIds) {
		try {
			const template = await getTemplate(ctx, templateId);
			for (const field of (template.fields as IDataObject[] | undefined) ?? []) {
				const label = labelOf(field);
				if (label !== undefined) labels.set(String(field.id), label);
			}
		} catch {
			// Deleted or unreadable: its fields' values are then taken for personal data (below), and
			// the operation, which may have sent invitations already, does not fail for it.
		}
	}
	return labels;
}

const labelOf = (holder: IDataObject): string | undefined =>
	typeof holder.label === 'string' && holder.label.trim() !== '' ? holder.label : undefined;

/** What a label asks for, as a field name or a question's headline; null when it asks for nothing personal. */
const kindOfLabel = (label: string): Kind | null => kindOfFieldName(label) ?? kindOfHeadline(label) ?? null;

/**
 * Documenso's field types (packages/prisma/schema.prisma `FieldType`) whose value is the signer's
 * own whatever the label: their name, e-mail, initials or signature.
 */
const SIGNER_FIELD_KINDS = new Map<string, Kind>([
	['NAME', 'NAME'],
	['EMAIL', 'EMAIL'],
	['INITIALS', 'NAME'],
	['SIGNATURE', 'NAME'],
	['FREE_SIGNATURE', 'NAME'],
]);

/** Field types whose value is typed in (or prefilled) freely: without a label, taken for personal data. */
const FREE_FIELD_TYPES = new Set(['TEXT', 'NUMBER']);

/** Documenso's field types, which its fieldMeta names in lower case (packages/lib/types/field-meta.ts). */
const FIELD_TYPES = new Set([...SIGNER_FIELD_KINDS.keys(), ...FREE_FIELD_TYPES, 'DATE', 'RADIO', 'CHECKBOX', 'DROPDOWN']);

/** Where a field's fieldMeta holds a value prefilled or signed in (`ZTextFieldMeta.text`, `ZNumberFieldMeta.value`, `ZDropdownFieldMeta.defaultValue`). */
const FIELD_META_VALUES = new Set(['text', 'value', 'defaultValue']);

/**
 * The kind of a value in a Documenso field: the signer's name, e-mail, initials or signature by
 * the field's type; any other by its label, as for prefilled fields (a date the signer signed on
 * and a choice among the template's options are no one's details without a label saying so); a
 * typed-in value without a label is taken for personal data.
 */
function kindOfFieldValue(type: unknown, label: string | undefined): Kind | null {
	const fieldType = String(type).toUpperCase();
	const signersOwn = SIGNER_FIELD_KINDS.get(fieldType);
	if (signersOwn) return signersOwn;
	if (label !== undefined) return kindOfLabel(label);
	return FREE_FIELD_TYPES.has(fieldType) ? 'PERSONAL' : null;
}

const isFieldType = (type: unknown) => typeof type === 'string' && FIELD_TYPES.has(type.toUpperCase());

/**
 * The Signing node's guide to personal data in documents and templates beyond field names:
 * prefilled values by their field's label (`prefillFields`), and on Documenso the document's own
 * records of its fields (packages/lib/types/field.ts `ZFieldSchema`: `customText`, what was
 * prefilled or signed in, and `fieldMeta`'s `text`, `value`, `defaultValue`), its `formValues`
 * (the PDF form's values, by their names) and the audit log's inserted fields
 * (`DOCUMENT_FIELD_INSERTED`: `data.field: { type, data }`, the value or the signature itself).
 */
export async function signingGuide(ctx: RequestContext, records: IDataObject[]): Promise<FieldGuide> {
	const labels = await prefillLabels(ctx, records);
	return {
		kindOf(path, _value, holder) {
			const key = path[path.length - 1];
			const parent = path[path.length - 2];
			if (parent === 'prefillFields' && key === 'value') {
				const label = labelOf(holder) ?? labels.get(String(holder.id));
				return label === undefined ? 'PERSONAL' : kindOfLabel(label);
			}
			if (parent === 'formValues') return kindOfLabel(key);
			if (key === 'customText' && isFieldType(holder.type) && 'fieldMeta' in holder) {
				const meta = (holder.fieldMeta ?? {}) as IDataObject;
				return kindOfFieldValue(holder.type, labelOf(meta));
			}
			if (parent === 'fieldMeta' && FIELD_META_VALUES.has(key) && isFieldType(holder.type)) {
				return kindOfFieldValue(holder.type, labelOf(holder));
			}
			if (parent === 'field' && key === 'data' && isFieldType(holder.type)) {
				return kindOfFieldValue(holder.type, undefined);
			}
			return undefined;
		},
	};
}

/** The guide of every Signing operation's output. */
export const signingPrivacy: OutputPrivacy = { guide: signingGuide };
