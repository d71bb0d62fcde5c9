import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { changeStatus } from './status';

/** Opens a survey to responses. */
export async function publish(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await changeStatus(this, itemIndex, 'inProgress', 'Survey → Publish');
}
