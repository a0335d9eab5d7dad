// The named algorithms, one file each under algorithms/ (what one is: algorithms/variant.ts): a
// preset of switches. The list is the `algorithm` options in the form's order; config.ts, the page,
// the studies, the exporter and the explanations read the rows from here. A new algorithm made of
// existing switches is one file beside the others and one line in ALGORITHM_VARIANTS.
import { dpoOnline } from './algorithms/dpoOnline.js';
import { ppoTurn } from './algorithms/ppoTurn.js';
import { starpoDapo } from './algorithms/starpoDapo.js';
import { starpoDrgrpo } from './algorithms/starpoDrgrpo.js';
import { starpoGrpo } from './algorithms/starpoGrpo.js';
import { starpoGspo } from './algorithms/starpoGspo.js';
import { starpoPpo } from './algorithms/starpoPpo.js';
import { starpoS } from './algorithms/starpoS.js';
import { starpoSPlus } from './algorithms/starpoSPlus.js';
import { byName, namesOf } from './registry.js';

export const ALGORITHM_VARIANTS = [
  ppoTurn,
  starpoPpo,
  starpoGrpo,
  starpoDrgrpo,
  starpoGspo,
  starpoDapo,
  starpoS,
  starpoSPlus,
  dpoOnline,
] as const;

export type AlgorithmName = (typeof ALGORITHM_VARIANTS)[number]['name'];

/** The `algorithm` options, in the form's order. */
export const ALGORITHM_NAMES = namesOf(ALGORITHM_VARIANTS);

/** Each algorithm by its name. */
export const ALGORITHMS = byName(ALGORITHM_VARIANTS);

export type { AlgorithmVariant, Switches } from './algorithms/variant.js';
