// Online DPO on each group's best and worst trajectory against the reference (the `none` estimator).
import { STARPO } from './bases.js';
import type { AlgorithmVariant } from './variant.js';

export const dpoOnline: AlgorithmVariant<'dpo-online'> = {
  name: 'dpo-online',
  label: 'Online DPO',
  colour: '#555555',
  summary: 'Online DPO: best vs worst trajectory of each group against the reference policy.',
  switches: { ...STARPO, advantage: 'none', klCoef: 0, klMode: 'loss' },
};
