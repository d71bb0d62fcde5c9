import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { personalDataMode, redactionMemoryOf, redactRecords } from '../../../shared/privacy';
import type { FieldGuide } from '../../../shared/redaction';
import { kindOfFieldName } from '../../../shared/redaction';

/**
 * Personal data of contacts: every attribute value is someone's (an e-mail, a name, a user ID, or a
 * custom key such as a phone or a cohort), judged by its key where the key says what it is and
 * personal otherwise; a personal survey link, which lets anyone answer as its contact, is personal too.
 */
export const CONTACT_GUIDE: FieldGuide = {
	kindOf(path) {
		if (path.length === 2 && path[0] === 'attributes') return kindOfFieldName(path[1]) ?? 'PERSONAL';
		if (path.length === 1 && path[0] === 'surveyUrl') return 'PERSONAL';
		return undefined;
	},
};

/** Records about contacts as the Personal Data option asks (redacted by default when the node runs as a tool). */
export function contactsOutput(ctx: IExecuteFunctions, records: IDataObject[], itemIndex: number): IDataObject[] {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return redactRecords(records, personalDataMode(ctx, options.personalData), {
		guide: CONTACT_GUIDE,
		memory: redactionMemoryOf(ctx),
	});
}
