// Arm-name pairs of RAGEN's two-armed bandit, each as [low-risk name, high-risk name]
// (RAGEN's `lo_arm_name`, `hi_arm_name`).
// - train / test: the paper-era configs (config/envs.yaml: Bandit = Phoenix/Dragon, BanditTest =
//   Trader/Librarian). Note that RAGEN's BanditTest makes Librarian the high-risk arm and Trader
//   the safe one, against what the names suggest; it is kept as upstream has it.
// - reversed: BanditRev, the training pair with the meanings swapped (Phoenix pays like a gamble).
// - professionsTrain / professionsTest: the later profession pairs (ragen/env/bandit/config.py).

/** A pair of arm names: the low-risk arm first, the high-risk arm second. */
export type ArmPair = readonly [lowRisk: string, highRisk: string];

/** Named pools of arm pairs; reset(seed) draws one pair from the pool. */
export const ARM_POOLS = {
  train: [['Phoenix', 'Dragon']],
  test: [['Trader', 'Librarian']],
  reversed: [['Dragon', 'Phoenix']],
  professionsTrain: [
    ['Teacher', 'Trader'],
    ['Nurse', 'StartupFounder'],
    ['Librarian', 'Investor'],
    ['Accountant', 'StockBroker'],
    ['Engineer', 'RealEstateAgent'],
    ['Pharmacist', 'Musician'],
    ['Clerk', 'Freelancer'],
    ['Technician', 'Youtuber'],
    ['Planner', 'Artist'],
    ['Postman', 'Pilot'],
    ['Banker', 'VentureCapitalist'],
    ['Gardener', 'Cryptominer'],
  ],
  professionsTest: [
    ['Receptionist', 'Explorer'],
    ['Archivist', 'Filmmaker'],
    ['Bookkeeper', 'Consultant'],
    ['SocialWorker', 'Photographer'],
    ['Mechanic', 'GameDesigner'],
    ['Secretary', 'Entrepreneur'],
    ['Cashier', 'DataScientist'],
    ['CivilServant', 'StartupAccelerator'],
  ],
} as const satisfies Record<string, readonly ArmPair[]>;

export type ArmPool = keyof typeof ARM_POOLS;
