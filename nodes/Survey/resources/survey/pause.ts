import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { changeStatus } from './status';

/** Stops a survey taking responses for now. */
export async function pause(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await changeStatus(this, itemIndex, 'paused', 'Survey → Pause');
}
