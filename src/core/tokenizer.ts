// Word-level tokenizer over a closed vocabulary, saved inside checkpoints.
//
// Pre-tokenisation splits text into: special tokens (`<think>` …) and atoms (`[SEP]`, `||`)
// matched whole; words (runs of letters); single digits (so "50.00" is 5 0 . 0 0 and every
// number is spelled with ten tokens); newlines; and every other character alone (brackets,
// punctuation, symbols). So "search[red shampoo]" is `search [ red shampoo ]`.
//
// Spacing is not stored per token. A fixed rule (`defaultSpace`) says whether two adjacent
// tokens are separated by one space (words: yes; before `, . : ] )`: no; after `[ ( $`: no;
// around `- / ' _`, newlines and special tags: no; between digits: no; word then `[`: no).
// Where the text disagrees with the rule, the encoder inserts `<sp>` or `<nosp>` before the
// token, so spacing round-trips exactly.
//
// Normalisation (the only loss): `\r\n` and `\r` become `\n`; runs of other whitespace become one
// space; spaces next to a newline and at both ends are dropped. For any text whose words are all
// in the vocabulary, decode(encode(x)) === normalizeText(x). Unknown words become `<unk>`.
// Case is kept ("You" and "you" are different tokens).
//
// Pieces (vocabulary version 2): so that a catalogue does not give every product id
// and rare word its own embedding row, a version-2 vocabulary also holds the 52 ASCII letters
// and 62 continuation pieces `##a`…`##Z`, `##0`…`##9` (a piece joins the previous token with no
// space), and the marker `<caps>`. An id — an ASCII run of letters and digits holding both,
// such as "b07tea0001" or "28w" — is always spelled: its first character, then one piece per
// following character (`b ##0 ##7 ##t ##e ##a ##0 ##0 ##0 ##1`), so the model can copy it
// character by character. An id whose letters are all upper case is spelled in lower case after
// `<caps>` ("B07TEA0001" is `<caps> b ##0 ##7 ##t …`), so a product id listed on a page and the
// same id in a `click[...]` action are the same pieces. A vocabulary built with `indexedPieces`
// spells ids with pieces that carry their index (`b #10 #2h #37 …`), so the current piece alone
// finds the next one when an id is copied. A vocabulary built with `wholeIds` also
// holds the ids it saw as single lower-case tokens (`<caps> b07tea0001` for "B07TEA0001"), used
// wherever it has them: copying an id is then one token. A word missing from the vocabulary is
// spelled as it is written (only `<unk>` when it has non-ASCII letters). Version-1 vocabularies
// (every checkpoint made before) encode exactly as before.

/** Special tokens; their ids are their positions here (pad = 0, bos = 1, …). */
export const SPECIAL_TOKENS = [
  '<pad>',
  '<bos>',
  '<eos>',
  '<unk>',
  '<think>',
  '</think>',
  '<answer>',
  '</answer>',
  '<turn>',
  '<state>',
  '<reward>',
  '<cut>',
  '<sp>',
  '<nosp>',
] as const;

export type SpecialToken = (typeof SPECIAL_TOKENS)[number];

/** Multi-character strings kept as one token unless a vocabulary says otherwise. */
export const DEFAULT_ATOMS: readonly string[] = ['[SEP]', '||'];

/** Tokens every vocabulary holds after the specials: newline and the ten digits. */
const BASE_TOKENS = ['\n', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

/** Prefix of a continuation piece: `##x` is the character x joined to the token before it. */
export const PIECE_PREFIX = '##';

const ASCII_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Marks an upper-case id, spelled in lower case after it (version 2). */
export const CAPS_TOKEN = '<caps>';

/** The tokens a version-2 vocabulary adds after the base ones: letters, pieces, `<caps>`. */
export const PIECE_TOKENS: readonly string[] = [
  ...ASCII_LETTERS,
  ...[...`${ASCII_LETTERS}0123456789`].map((c) => `${PIECE_PREFIX}${c}`),
  CAPS_TOKEN,
];

/** Whether `token` is a continuation piece (`##` and one character). */
export function isPiece(token: string): boolean {
  return token.length === 3 && (token.startsWith(PIECE_PREFIX) || /^#[1-9]/.test(token));
}

/** Characters an indexed piece can hold: lower-case letters and digits (ids fold case). */
const INDEXED_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Indexed pieces cover an id's characters 2 to 10 (index 1–9); later ones use plain pieces. */
const MAX_PIECE_INDEX = 9;

/**
 * The indexed pieces `#1a` … `#9z`, `#19` …: character c at index i (0-based) of an id. An id
 * spelled with them gives each piece its place, so copying an id needs only the current
 * piece to find the next one (a product id's characters repeat across ids, their places less).
 */
export const INDEXED_PIECE_TOKENS: readonly string[] = Array.from({ length: MAX_PIECE_INDEX }, (_, i) =>
  [...INDEXED_CHARS].map((c) => `#${i + 1}${c}`),
).flat();

/**
 * Plain-JSON vocabulary, stored in checkpoints. `tokens[id]` is the token's string. Version 1:
 * words only; version 2: words plus letters and pieces, ids spelled (see the file header).
 */
export interface Vocabulary {
  version: 1 | 2;
  tokens: string[];
  atoms: string[];
}

export interface BuildVocabularyOptions {
  /** Strings kept whole (default `[SEP]`, `||`). */
  atoms?: readonly string[];
  /** Words seen fewer times are left out (default 1: keep all). */
  minCount?: number;
  /** Cap on the vocabulary size, specials included (default: no cap). */
  maxSize?: number;
  /** Make a version-2 vocabulary: ids and left-out words spelled in pieces (default false). */
  pieces?: boolean;
  /**
   * With `pieces`: also keep every id the texts hold as one token, in lower case, so copying
   * an id is one token (default false: ids are always spelled).
   */
  wholeIds?: boolean;
  /** With `pieces`: spell ids with indexed pieces (`#3h`: "h" at index 3) (default false). */
  indexedPieces?: boolean;
}

const CLOSERS = new Set([',', '.', ';', ':', '!', '?', ')', ']', '}', '%']);
const OPENERS = new Set(['(', '[', '{', '$']);
const JOINERS = new Set(['-', '/', "'", '_']);
const TAGS = new Set<string>(SPECIAL_TOKENS.filter((t) => t !== '<unk>'));
const LETTER = /^\p{L}/u;
const DIGIT = /^\p{Nd}$/u;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An ASCII run of letters and digits holding at least one of each (version 2 only). */
const ID_PATTERN = '(?=[A-Za-z0-9]*[0-9])(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]+';

function splitterFor(atoms: readonly string[], ids = false): RegExp {
  const whole = [...SPECIAL_TOKENS, ...atoms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  // 1 whole token, 2 word (or id, version 2), 3 digit, 4 newline, 5 other whitespace, 6 any
  // other character. An id is tried before a word, so it is always taken whole.
  const word = ids ? `${ID_PATTERN}|\\p{L}[\\p{L}\\p{M}]*` : '\\p{L}[\\p{L}\\p{M}]*';
  return new RegExp(`(${whole.join('|')})|(${word})|(\\p{Nd})|(\\n)|(\\s+)|([^])`, 'gu');
}

const ID_ONLY = new RegExp(`^${ID_PATTERN}$`);
const ASCII_WORD = /^[A-Za-z]+$/;

/** Whether an id's letters are all lower case, all upper case, or both. */
function caseOf(id: string): 'lower' | 'upper' | 'mixed' {
  if (id === id.toLowerCase()) return 'lower';
  return id === id.toUpperCase() ? 'upper' : 'mixed';
}

/** Canonical whitespace: see the file header. decode(encode(x)) reproduces this exactly. */
export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/^ | $/g, '');
}

/** Whether decode puts one space between tokens `a` and `b` when no marker says otherwise. */
export function defaultSpace(a: string, b: string): boolean {
  if (isPiece(b)) return false;
  if (a === '\n' || b === '\n' || TAGS.has(a) || TAGS.has(b)) return false;
  const aDigit = DIGIT.test(a);
  const bDigit = DIGIT.test(b);
  if (aDigit && bDigit) return false;
  if (a === '.' && bDigit) return false;
  if (CLOSERS.has(b) || OPENERS.has(a)) return false;
  if (JOINERS.has(a) || JOINERS.has(b)) return false;
  if (b === '[' && LETTER.test(a)) return false;
  return true;
}

/** Splits normalised text into pre-tokens, each with whether a space precedes it. */
function preTokenize(text: string, splitter: RegExp): { token: string; spaced: boolean }[] {
  const out: { token: string; spaced: boolean }[] = [];
  let pendingSpace = false;
  for (const m of normalizeText(text).matchAll(splitter)) {
    if (m[5] !== undefined) {
      pendingSpace = true;
      continue;
    }
    out.push({ token: m[0], spaced: pendingSpace });
    pendingSpace = false;
  }
  return out;
}

/**
 * Builds a vocabulary from texts: specials, newline and digits (version 2: then letters and
 * pieces), then words by frequency. Version 2 never gives an id a token of its own.
 */
export function buildVocabulary(texts: Iterable<string>, options: BuildVocabularyOptions = {}): Vocabulary {
  const atoms = [...(options.atoms ?? DEFAULT_ATOMS)];
  const pieces = options.pieces === true;
  const splitter = splitterFor(atoms, pieces);
  const fixed: string[] = [
    ...SPECIAL_TOKENS,
    ...BASE_TOKENS,
    ...(pieces ? PIECE_TOKENS : []),
    ...(pieces && options.indexedPieces ? INDEXED_PIECE_TOKENS : []),
  ];
  const fixedSet = new Set(fixed);
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const { token } of preTokenize(text, splitter)) {
      const id = pieces && ID_ONLY.test(token);
      // An id is kept (in lower case) only with wholeIds, and only if all one case.
      const word = id ? (options.wholeIds && caseOf(token) !== 'mixed' ? token.toLowerCase() : null) : token;
      if (word !== null && !fixedSet.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  const minCount = options.minCount ?? 1;
  const words = [...counts.entries()]
    .filter(([, n]) => n >= minCount)
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
    .map(([w]) => w);
  const cap = options.maxSize === undefined ? Number.POSITIVE_INFINITY : options.maxSize - fixed.length;
  if (cap < 0)
    throw new Error(`buildVocabulary: maxSize ${options.maxSize} is below the ${fixed.length} fixed tokens`);
  return { version: pieces ? 2 : 1, tokens: [...fixed, ...words.slice(0, cap)], atoms };
}

/** Encodes and decodes text with a fixed vocabulary. Immutable after construction. */
export class Tokenizer {
  readonly vocab: Vocabulary;
  private readonly ids = new Map<string, number>();
  private readonly splitter: RegExp;
  /** Version 2: ids and unknown ASCII words are spelled in pieces. */
  private readonly pieces: boolean;
  /** Ids of the special tokens by name. */
  readonly special: Readonly<Record<SpecialToken, number>>;

  constructor(vocab: Vocabulary) {
    if (
      (vocab.version !== 1 && vocab.version !== 2) ||
      !Array.isArray(vocab.tokens) ||
      !Array.isArray(vocab.atoms)
    ) {
      throw new Error('Tokenizer: vocabulary must be {version: 1 or 2, tokens: string[], atoms: string[]}');
    }
    SPECIAL_TOKENS.forEach((t, i) => {
      if (vocab.tokens[i] !== t)
        throw new Error(`Tokenizer: vocabulary id ${i} must be ${t}, got ${vocab.tokens[i]}`);
    });
    vocab.tokens.forEach((t, i) => {
      if (this.ids.has(t)) throw new Error(`Tokenizer: duplicate vocabulary token ${JSON.stringify(t)}`);
      this.ids.set(t, i);
    });
    if (vocab.version === 2) {
      const missing = PIECE_TOKENS.find((t) => !this.ids.has(t));
      if (missing !== undefined)
        throw new Error(`Tokenizer: a version-2 vocabulary must hold ${JSON.stringify(missing)}`);
    }
    this.vocab = vocab;
    this.pieces = vocab.version === 2;
    this.splitter = splitterFor(vocab.atoms, this.pieces);
    this.special = Object.fromEntries(SPECIAL_TOKENS.map((t, i) => [t, i])) as Record<SpecialToken, number>;
  }

  /** Number of tokens, specials included. */
  get size(): number {
    return this.vocab.tokens.length;
  }

  /** Id of a token string, or undefined when it is not in the vocabulary. */
  idOf(token: string): number | undefined {
    return this.ids.get(token);
  }

  /** Encodes text (normalised, see the header) into ids; no `<bos>`/`<eos>` are added. */
  encode(text: string): number[] {
    const out: number[] = [];
    const unk = this.special['<unk>'];
    let prev: string | null = null;
    const caps = this.pieces ? this.ids.get(CAPS_TOKEN) : undefined;
    for (const { token, spaced } of preTokenize(text, this.splitter)) {
      const ids = this.idsOf(token) ?? [unk];
      // Spacing is decided by the first character, not by the <caps> marker before it.
      const shown = this.vocab.tokens[(ids[0] === caps ? ids[1] : ids[0]) as number] as string;
      if (prev !== null && spaced !== defaultSpace(prev, shown)) {
        out.push(spaced ? this.special['<sp>'] : this.special['<nosp>']);
      }
      out.push(...ids);
      prev = this.vocab.tokens[ids[ids.length - 1] as number] as string;
    }
    return out;
  }

  /** The ids of one pre-token: its own id, or (version 2) its spelling in pieces; else undefined. */
  private idsOf(token: string): number[] | undefined {
    const own = this.ids.get(token);
    const id = this.pieces && ID_ONLY.test(token);
    const upper = id && caseOf(token) === 'upper';
    if (id && caseOf(token) !== 'mixed') {
      // A whole id token (lower case; <caps> before an upper-case id), when the vocabulary has it.
      const whole = this.ids.get(token.toLowerCase());
      if (whole !== undefined) return upper ? [this.ids.get(CAPS_TOKEN) as number, whole] : [whole];
    }
    const spell = this.pieces && (id || (own === undefined && ASCII_WORD.test(token)));
    if (!spell) return own === undefined ? undefined : [own];
    const chars = [...(upper ? token.toLowerCase() : token)];
    const indexed = id && caseOf(token) !== 'mixed' && this.ids.has(INDEXED_PIECE_TOKENS[0] as string);
    const piece = (c: string, i: number) =>
      (indexed && i <= MAX_PIECE_INDEX ? this.ids.get(`#${i}${c}`) : undefined) ??
      (this.ids.get(`${PIECE_PREFIX}${c}`) as number);
    const spelled = chars.map((c, i) => (i === 0 ? (this.ids.get(c) as number) : piece(c, i)));
    return upper ? [this.ids.get(CAPS_TOKEN) as number, ...spelled] : spelled;
  }

  /** The token strings of ids, markers included (for per-token viewers). */
  tokenStrings(ids: readonly number[]): string[] {
    return ids.map((id) => this.vocab.tokens[id] ?? '<unk>');
  }

  /** Decodes ids to text, applying the spacing rule and markers; `<pad>` is dropped. */
  decode(ids: readonly number[]): string {
    const { '<sp>': sp, '<nosp>': nosp, '<pad>': pad } = this.special;
    let text = '';
    let prev: string | null = null;
    let force: boolean | null = null;
    // <caps>: the next token and the pieces after it are written in upper case.
    let caps: 'off' | 'next' | 'on' = 'off';
    for (const id of ids) {
      if (id === sp || id === nosp) {
        force = id === sp;
        continue;
      }
      if (id === pad) continue;
      const token = this.vocab.tokens[id] ?? '<unk>';
      if (this.pieces && token === CAPS_TOKEN) {
        caps = 'next';
        continue;
      }
      if (isPiece(token)) {
        // A piece always joins the token before it (a stray marker before it is ignored).
        const c = token.slice(PIECE_PREFIX.length);
        text += caps === 'on' ? c.toUpperCase() : c;
        prev = token;
        force = null;
        continue;
      }
      if (prev !== null && (force ?? defaultSpace(prev, token))) text += ' ';
      text += caps === 'next' ? token.toUpperCase() : token;
      caps = caps === 'next' ? 'on' : 'off';
      prev = token;
      force = null;
    }
    return text;
  }

  /** The vocabulary as plain JSON data. */
  toJSON(): Vocabulary {
    return this.vocab;
  }
}
