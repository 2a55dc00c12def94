import { ignoreRequest } from '../../../services/connections.js';
import { requestAnswerRoute } from './answer.js';

/**
 * abook/ignore: ignores a connection request (abook_id), as Hubzilla's connection editor does;
 * answers the connection, now with abook_ignored 1. Accepting it is abook/approve.
 */
export const abookIgnore = requestAnswerRoute('abook/ignore', ignoreRequest);
