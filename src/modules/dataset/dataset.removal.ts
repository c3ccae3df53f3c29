import { ownedRecordRemoval } from '../owned-record/owned-record.removal';

export const datasetRecordRemoval = ownedRecordRemoval('dataset');
