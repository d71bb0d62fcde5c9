export { dateTextField } from '../../../shared/dateText';
