// No filter: every group rolled out is trained on (RAGEN's StarPO, vanilla).
import { asMany, type FilterVariant } from './variant.js';

export const off: FilterVariant<'off'> = {
  name: 'off',
  label: 'no filter: every group rolled out is trained on',
  help: 'off',
  words: 'no filter in this recording',
  oversamples: false,
  keepsShare: false,
  batches: 1,
  rollOut: asMany,
  keeps: (rolledOut) => rolledOut,
  select: () => null,
  ragen: { topK: false, topP: () => 1, includeZero: true, ordered: false, unmapped: () => [] },
};
