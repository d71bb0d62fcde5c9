/**
 * Each test starts with the rate budgets of a fresh n8n process (nodes/shared/rateBudget.ts): a
 * sandbox reset between tests empties the services' windows, and a budget that remembered an
 * earlier test's 429s or requests would wait for windows that no longer exist.
 */
import { forgetRateBudgets } from '../../nodes/shared/rateBudget';

beforeEach(() => forgetRateBudgets());
