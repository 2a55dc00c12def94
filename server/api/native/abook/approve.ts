import { approveRequest } from '../../../services/connections.js';
import { requestAnswerRoute } from './answer.js';

/**
 * abook/approve: accepts a connection (follow) request, abook_id, also one ignored before; answers
 * the connection, now with abook_pending 0. The channel does not follow them by this: following
 * back is friendships/create.
 */
export const abookApprove = requestAnswerRoute('abook/approve', approveRequest);
