import type { NewRecord } from './adapters/types';

/**
 * After the answer to a write was lost (it is not sent again): where its effect shows, and what
 * running the item again would do.
 */
export const lostAnswerHints = {
	createRecord: (record: NewRecord) =>
		record.type === 'link'
			? 'Running this item again with If URL Exists → Return Existing (the default) or Update It finds the record if it was stored, and stores none twice.'
			: 'Look before running this item again, which would store a second record: Bookmark → Get Many, newest first, shows whether it was stored.',
	updateRecord: (recordId: string) =>
		`Bookmark → Get ${recordId} shows whether the change was made. Running this item again writes the same values.`,
	changeTags: (recordId: string) =>
		`Bookmark → Get ${recordId} shows its tags as they are now. Running this item again changes nothing more: the same tags attached or removed twice are attached or removed once.`,
	createList: (name: string) =>
		`Look before running this item again, which would make a second list: List → Get Many lists every list; look for "${name}".`,
	updateList: (listId: string) =>
		`List → Get Many shows whether list ${listId} was changed. Running this item again writes the same values.`,
};
