import { ownedRecordRemoval } from '../owned-record/owned-record.removal';

export const sampleRecordRemoval = ownedRecordRemoval('sample');
