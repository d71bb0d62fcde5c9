/* The request paths the documented API and Karakeep share (both under /api/v1), an id always encoded. */

export const recordPath = (recordId: string, below = '') => `/api/v1/bookmarks/${encodeURIComponent(recordId)}${below}`;
export const listPath = (listId: string, below = '') => `/api/v1/lists/${encodeURIComponent(listId)}${below}`;
