import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import { invalidInput, isHttpUrl } from '../../../shared/validation';

/** The invitation's subject and message, and where a signer lands after signing: for the operations that make a document. */
export function emailOptionsProperty(show: NonNullable<IDisplayOptions['show']>): INodeProperties {
	return {
		displayName: 'Email Options',
		name: 'emailOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Message',
				name: 'message',
				type: 'string',
				typeOptions: { rows: 4 },
				default: '',
				description: 'Text of the invitation e-mail',
			},
			{
				displayName: 'Redirect URL',
				name: 'redirectUrl',
				type: 'string',
				default: '',
				placeholder: 'https://example.org/thanks',
				description: 'Where a signer lands after signing (an http or https URL)',
			},
			{
				displayName: 'Subject',
				name: 'subject',
				type: 'string',
				default: '',
				description: 'Subject of the invitation e-mail',
			},
		],
	};
}

export function readEmailOptions(
	ctx: IExecuteFunctions,
	itemIndex: number,
): IDataObject | undefined {
	const given = ctx.getNodeParameter('emailOptions', itemIndex, {}) as IDataObject;
	const meta: IDataObject = {};
	for (const key of ['subject', 'message', 'redirectUrl']) {
		const value = typeof given[key] === 'string' ? (given[key] as string).trim() : '';
		if (value !== '') meta[key] = value;
	}
	if (meta.redirectUrl !== undefined && !isHttpUrl(meta.redirectUrl as string)) {
		throw invalidInput(
			ctx,
			itemIndex,
			'Email Options › Redirect URL',
			`"${String(meta.redirectUrl)}" is not an http(s) URL`,
		);
	}
	return Object.keys(meta).length > 0 ? meta : undefined;
}
