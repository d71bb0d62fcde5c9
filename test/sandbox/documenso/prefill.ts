/**
 * Prefilled fields as createDocumentFromTemplate checks and applies them
 * (packages/lib/server-only/template/create-document-from-template.ts, tag v2.17.0): each id must
 * be a field of the template, each `type` the field's own (lower case), each value one the field
 * takes; a date is written into the field (`customText`, inserted), the others into its fieldMeta.
 */
import { appError } from './errors';
import type { Envelope, Field } from './model';

export type Prefill = {
	id: number;
	type: string;
	value?: string | string[];
	label?: string;
	placeholder?: string;
};

/** "yyyy-MM-dd hh:mm a", the template's date format, as luxon writes it (in UTC here). */
export function dateText(date: Date): string {
	const hours = date.getUTCHours();
	const twelve = String(hours % 12 === 0 ? 12 : hours % 12).padStart(2, '0');
	const minutes = String(date.getUTCMinutes()).padStart(2, '0');
	return `${date.toISOString().slice(0, 10)} ${twelve}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** Prefill as createDocumentFromTemplate checks and applies it (create-document-from-template.ts). */
export function checkPrefill(procedure: string, template: Envelope, entries: Prefill[]) {
	const invalid = entries.filter(
		(entry) => !template.fields.some((field) => field.id === entry.id),
	);
	if (invalid.length > 0) {
		throw appError(
			procedure,
			'INVALID_BODY',
			`The following field IDs do not exist in the template: ${invalid.map((entry) => entry.id).join(', ')}`,
		);
	}
	const applied = new Map<number, Partial<Field>>();
	for (const entry of entries) {
		const field = template.fields.find((candidate) => candidate.id === entry.id) as Field;
		const expected = field.type.toLowerCase();
		if (expected !== entry.type) {
			throw appError(
				procedure,
				'INVALID_BODY',
				`Field type mismatch for field ${entry.id}: expected ${expected}, got ${entry.type}`,
			);
		}
		const meta = (field.fieldMeta ?? {}) as { values?: Array<{ value: string }> };
		const bad = (message: string) => appError(procedure, 'INVALID_BODY', message);
		switch (entry.type) {
			case 'date': {
				if (!entry.value) throw bad(`Date value is required for field ${field.id}`);
				const date = new Date(String(entry.value));
				if (Number.isNaN(date.getTime()))
					throw bad(`Invalid date value for field ${field.id}: ${entry.value}`);
				applied.set(field.id, { customText: dateText(date), inserted: true });
				break;
			}
			case 'checkbox': {
				if (!entry.value) throw bad(`Value is required for CHECKBOX field ${entry.id}`);
				const values = entry.value as string[];
				for (const value of values) {
					if (!meta.values?.some((option) => option.value === value)) {
						throw bad(`Value "${value}" not found in options for CHECKBOX field ${entry.id}`);
					}
				}
				applied.set(field.id, {
					fieldMeta: {
						...field.fieldMeta,
						label: entry.label,
						values: meta.values?.map((option) => ({
							...option,
							checked: values.includes(option.value),
						})),
					},
				});
				break;
			}
			case 'dropdown':
			case 'radio':
				if (
					typeof entry.value !== 'string' ||
					!meta.values?.some((option) => option.value === entry.value)
				) {
					throw bad(
						`Value "${entry.value}" not found in options for ${entry.type.toUpperCase()} field ${entry.id}`,
					);
				}
				applied.set(field.id, {
					fieldMeta: { ...field.fieldMeta, label: entry.label, defaultValue: entry.value },
				});
				break;
			default:
				if (typeof entry.value !== 'string') {
					throw bad(
						`Invalid value for ${entry.type.toUpperCase()} field ${entry.id}: expected string, got ${typeof entry.value}`,
					);
				}
				applied.set(field.id, {
					fieldMeta: {
						...field.fieldMeta,
						label: entry.label,
						placeholder: entry.placeholder,
						...(entry.type === 'text' ? { text: entry.value } : { value: entry.value }),
					},
				});
		}
	}
	return applied;
}
