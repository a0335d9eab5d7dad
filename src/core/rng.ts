// Seeded pseudo-random numbers for everything in core/ and envs/.
// xoshiro128** (Blackman & Vigna, 2018) on 32-bit state, seeded through splitmix32 so that
// nearby seeds give unrelated streams. core/ and envs/ draw every random number from here.

/** splitmix32: one step of a 32-bit mixing generator, used to expand seeds and hash labels. */
function splitmix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** FNV-1a hash of a string, 32-bit unsigned. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * A seeded generator. Instances are independent: each owns its state.
 * `fork(label)` derives a child stream from this generator's seed and the label only, so a
 * fork does not depend on how many numbers the parent has drawn, and forks with different
 * labels are unrelated streams.
 */
export class Rng {
  readonly seed: number;
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spareNormal: number | null = null;

  /** @param seed any finite number; it is reduced to an unsigned 32-bit integer. */
  constructor(seed: number) {
    if (!Number.isFinite(seed)) throw new Error(`Rng: seed must be a finite number, got ${seed}`);
    this.seed = Math.trunc(seed) >>> 0;
    let x = this.seed;
    x = splitmix32(x);
    this.s0 = x;
    x = splitmix32(x);
    this.s1 = x;
    x = splitmix32(x);
    this.s2 = x;
    x = splitmix32(x);
    this.s3 = x;
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** Next raw value, an unsigned 32-bit integer. */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform float in [0, 1) with 32 bits of randomness. */
  float(): number {
    return this.nextU32() / 4294967296;
  }

  /** Uniform integer in [lo, hi) (hi exclusive), like numpy's `integers(lo, hi)`. */
  int(lo: number, hi: number): number {
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi <= lo) {
      throw new Error(`Rng.int: need integers lo < hi, got ${lo}, ${hi}`);
    }
    const span = hi - lo;
    if (span > 4294967296) throw new Error(`Rng.int: range ${span} exceeds 2^32`);
    // Rejection sampling removes modulo bias.
    const limit = 4294967296 - (4294967296 % span);
    let x = this.nextU32();
    while (x >= limit) x = this.nextU32();
    return lo + (x % span);
  }

  /** True with probability p. */
  bool(p = 0.5): boolean {
    return this.float() < p;
  }

  /** A uniformly chosen element of a non-empty array. */
  choice<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.choice: empty array');
    return items[this.int(0, items.length)] as T;
  }

  /** Shuffles in place (Fisher–Yates) and returns the same array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(0, i + 1);
      const tmp = items[i] as T;
      items[i] = items[j] as T;
      items[j] = tmp;
    }
    return items;
  }

  /** Standard normal sample (Marsaglia polar method), scaled: mean + std·z. */
  normal(mean = 0, std = 1): number {
    if (this.spareNormal !== null) {
      const z = this.spareNormal;
      this.spareNormal = null;
      return mean + std * z;
    }
    let u = 0;
    let v = 0;
    let s = 0;
    do {
      u = this.float() * 2 - 1;
      v = this.float() * 2 - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const m = Math.sqrt((-2 * Math.log(s)) / s);
    this.spareNormal = v * m;
    return mean + std * u * m;
  }

  /** Index drawn with probability proportional to non-negative weights. */
  weighted(weights: ArrayLike<number>): number {
    let total = 0;
    for (let i = 0; i < weights.length; i++) total += weights[i] as number;
    if (!(total > 0)) throw new Error('Rng.weighted: weights must sum to a positive number');
    let r = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i] as number;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** An independent child generator named by `label` (see the class comment). */
  fork(label: string): Rng {
    return new Rng(splitmix32(this.seed ^ splitmix32(hashString(label))));
  }

  /** Where this stream is: what `restore` needs to continue it exactly (plain data, for checkpoints). */
  state(): RngState {
    // As unsigned words whatever the stream holds, so a restored stream states what it was given.
    return { s: [this.s0 >>> 0, this.s1 >>> 0, this.s2 >>> 0, this.s3 >>> 0], spareNormal: this.spareNormal };
  }

  /** Continues from a `state()` of a stream with the same seed: every later draw is the same. */
  restore(state: RngState): void {
    const [s0, s1, s2, s3] = state.s;
    const word = (x: unknown) =>
      typeof x === 'number' && Number.isInteger(x) && x >= -(2 ** 31) && x < 2 ** 32;
    if (state.s.length !== 4 || ![s0, s1, s2, s3].every(word))
      throw new Error(`Rng.restore: the state needs four 32-bit words, got ${JSON.stringify(state.s)}`);
    if (state.spareNormal !== null && !Number.isFinite(state.spareNormal))
      throw new Error(`Rng.restore: spareNormal must be a finite number or null, got ${state.spareNormal}`);
    this.s0 = (s0 as number) | 0;
    this.s1 = (s1 as number) | 0;
    this.s2 = (s2 as number) | 0;
    this.s3 = (s3 as number) | 0;
    this.spareNormal = state.spareNormal;
  }
}

/** A generator's position (`Rng.state`): its four state words and a cached normal draw, if any. */
export interface RngState {
  s: number[];
  spareNormal: number | null;
}
