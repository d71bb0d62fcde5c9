import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { changeStatus } from './status';

/** Closes a survey for good: it takes no more responses. */
export async function complete(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await changeStatus(this, itemIndex, 'completed', 'Survey → Complete');
}
