import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { OutputPrivacy } from '../shared/privacy';
import { personalDataOptions } from '../shared/privacy';
import type { FieldGuide } from '../shared/redaction';
import { kindOfFieldName, kindOfHeadline } from '../shared/redaction';
import type { ToolConsent } from '../shared/toolConsent';
import { toolConsentProperty } from '../shared/toolConsent';
import { getTemplate } from './resources/template/locator';

/*
 * Personal data in the Signing node's output: recipients' names and e-mail addresses, the audit
 * log's e-mails, IP addresses and user agents (by field name), titles, messages and rejection
 * reasons (free text, scanned), and prefilled values, judged by their field's label.
 */

export const PERSONAL_DATA_DESCRIPTION =
	'What to do with recipients’ names and e-mail addresses, the audit log’s e-mails, IP addresses and user agents, and personal data in titles, messages, prefilled fields and rejection reasons. Without this option: kept as they are, but redacted when the node runs as an AI agent tool.';

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
		resource: ['attachment', 'document', 'recipient', 'field', 'template', 'folder'],
		operation: [
			'add',
			'cancel',
			'create',
			'createFromFile',
			'delete',
			'duplicate',
			'generateFromTemplate',
			'remove',
			'resend',
			'send',
			'update',
		],
	},
	'Whether an AI agent may create, cancel or delete documents or e-mail their recipients (Create From File, Send, Resend, Generate From Template with Send Now on) when this node is its tool. Off: as a tool, such an operation refuses and nothing is sent.',
);

/** The labels of the prefilled fields of the documents' templates; a template that cannot be read adds none. */
async function prefillLabels(
	ctx: IExecuteFunctions,
	records: IDataObject[],
): Promise<Map<string, string>> {
	const labels = new Map<string, string>();
	const templateIds = new Set(
		records
			.filter((record) => Array.isArray(record.prefillFields) && record.prefillFields.length > 0)
			.map((record) => record.templateId)
			.filter((id): id is string => typeof id === 'string' && id !== ''),
	);
	for (const templateId of templateIds) {
		try {
			const template = await getTemplate(ctx, templateId);
			for (const field of (template.fields as IDataObject[] | undefined) ?? []) {
				labels.set(String(field.id), String(field.label ?? ''));
			}
		} catch {
			// Deleted or unreadable: its fields' values are then taken for personal data (below), and
			// the operation, which may have sent invitations already, does not fail for it.
		}
	}
	return labels;
}

export const signingPrivacy: OutputPrivacy = {
	async guide(ctx, records): Promise<FieldGuide> {
		const labels = await prefillLabels(ctx, records);
		return {
			kindOf(path, _value, holder) {
				if (path[path.length - 1] !== 'value' || path[path.length - 2] !== 'prefillFields') {
					return undefined;
				}
				const label = labels.get(String(holder.id));
				if (label === undefined) return 'PERSONAL';
				return kindOfFieldName(label) ?? kindOfHeadline(label) ?? null;
			},
		};
	},
};
