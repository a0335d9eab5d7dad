// The word-level tokenizer (version 1) and its pieces variant (version 2): exact round trips,
// the spacing rule, ids spelled character by character, and every shipped checkpoint's
// vocabulary still loading and encoding as it did.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildVocabulary,
  defaultSpace,
  normalizeText,
  PIECE_TOKENS,
  SPECIAL_TOKENS,
  Tokenizer,
  type Vocabulary,
} from './tokenizer.js';

const MINIGRID = [
  'You see a yellow key 1 step right and 5 steps forward',
  'You see a wall 2 steps forward\nYou see a closed red door 3 steps left',
  'get to the green goal square',
  'turn left',
  'Your previous output did not contain a valid action. Defaulted to action: go forward',
];
const WEBSHOP = [
  'search[red shampoo]',
  'click[b0001]',
  'Back to Search [SEP] Page 1 (Total results: 50) [SEP] Next > [SEP] B07TEA0001 [SEP] Tea Tree Oil Shampoo for Dry Scalp, Sulfate Free, 16 oz [SEP] $12.99',
  "i need a sulfate-free shampoo for women's hair, and price lower than 50.00 dollars",
  'beauty & personal care › hair care › shampoos',
  'turn left || go forward',
];
const ALL = [...MINIGRID, ...WEBSHOP];

describe('tokenizer', () => {
  const tok = new Tokenizer(buildVocabulary(ALL));

  it('puts the specials first, then newline and digits', () => {
    expect(tok.vocab.tokens.slice(0, SPECIAL_TOKENS.length)).toEqual([...SPECIAL_TOKENS]);
    expect(tok.special['<pad>']).toBe(0);
    expect(tok.idOf('7')).toBe(SPECIAL_TOKENS.length + 8);
  });

  it.each(ALL)('round-trips %j exactly', (text) => {
    const ids = tok.encode(text);
    expect(ids).not.toContain(tok.special['<unk>']);
    expect(tok.decode(ids)).toBe(text);
  });

  it('splits brackets and digits into separate tokens', () => {
    const strings = (t: string) => tok.tokenStrings(tok.encode(t));
    expect(strings('search[red shampoo]')).toEqual(['search', '[', 'red', 'shampoo', ']']);
    // "b" then a digit needs a no-space marker: the rule puts a space between a word and a digit.
    expect(strings('click[b0001]')).toEqual(['click', '[', 'b', '<nosp>', '0', '0', '0', '1', ']']);
    expect(strings('lower than 50.00 dollars')).toEqual([
      'lower',
      'than',
      '5',
      '0',
      '.',
      '0',
      '0',
      'dollars',
    ]);
    expect(strings('[SEP]')).toEqual(['[SEP]']);
    expect(strings('a||b')).toEqual(['a', '<nosp>', '||', '<nosp>', 'b']);
  });

  it('normalises whitespace and reproduces the normal form', () => {
    const messy = '  turn   left \r\n\tgo forward  ';
    expect(normalizeText(messy)).toBe('turn left\ngo forward');
    expect(tok.decode(tok.encode(messy))).toBe('turn left\ngo forward');
    // Spacing the rule does not expect is kept with markers.
    expect(tok.decode(tok.encode('turn left ,go forward'))).toBe('turn left ,go forward');
    expect(tok.decode(tok.encode('<think>You see a key</think> <answer>turn left</answer>'))).toBe(
      '<think>You see a key</think> <answer>turn left</answer>',
    );
  });

  it('encodes unknown words as <unk>', () => {
    const ids = tok.encode('turn sideways');
    expect(ids).toEqual([tok.idOf('turn'), tok.special['<unk>']]);
  });

  it('applies the spacing rule', () => {
    expect(defaultSpace('see', 'a')).toBe(true);
    expect(defaultSpace('Scalp', ',')).toBe(false);
    expect(defaultSpace('search', '[')).toBe(false);
    expect(defaultSpace('$', '1')).toBe(false);
    expect(defaultSpace('1', '6')).toBe(false);
    expect(defaultSpace('16', 'oz')).toBe(true);
    expect(defaultSpace('</think>', '<answer>')).toBe(false);
  });

  it('serialises to JSON and back, and rejects a broken vocabulary', () => {
    const again = new Tokenizer(JSON.parse(JSON.stringify(tok.toJSON())));
    expect(again.encode(WEBSHOP[2] as string)).toEqual(tok.encode(WEBSHOP[2] as string));
    const broken = { ...tok.vocab, tokens: ['<bos>', ...tok.vocab.tokens.slice(1)] };
    expect(() => new Tokenizer(broken)).toThrow(/id 0 must be <pad>/);
  });

  it('orders words by frequency and honours maxSize', () => {
    const v = buildVocabulary(['b a a', 'a c'], { maxSize: SPECIAL_TOKENS.length + 11 + 2 });
    expect(v.tokens.slice(SPECIAL_TOKENS.length + 11)).toEqual(['a', 'b']);
  });
});

describe('tokenizer with pieces (version 2)', () => {
  const tok = new Tokenizer(buildVocabulary(ALL, { pieces: true }));
  const strings = (t: string) => tok.tokenStrings(tok.encode(t));

  it('holds letters and pieces after the digits, and no id of its own', () => {
    expect(tok.vocab.version).toBe(2);
    const base = SPECIAL_TOKENS.length + 11;
    expect(tok.vocab.tokens.slice(base, base + PIECE_TOKENS.length)).toEqual([...PIECE_TOKENS]);
    // 52 letters + 62 pieces + <caps>.
    expect(PIECE_TOKENS).toHaveLength(115);
    expect(tok.idOf('B07TEA0001')).toBeUndefined();
    expect(tok.idOf('TEA')).toBeUndefined();
    expect(tok.idOf('Shampoo')).toBeDefined();
  });

  it.each(ALL)('round-trips %j exactly', (text) => {
    const ids = tok.encode(text);
    expect(ids).not.toContain(tok.special['<unk>']);
    expect(tok.decode(ids)).toBe(text);
  });

  it('spells an id as its first character and one piece per following character', () => {
    expect(strings('click[b0001]')).toEqual(['click', '[', 'b', '##0', '##0', '##0', '##1', ']']);
    // An upper-case id: <caps>, then the same pieces as the lower-case id of its click.
    expect(strings('[SEP] B07TEA0001 [SEP]')).toEqual([
      '[SEP]',
      '<caps>',
      'b',
      '##0',
      '##7',
      '##t',
      '##e',
      '##a',
      '##0',
      '##0',
      '##0',
      '##1',
      '[SEP]',
    ]);
    expect(tok.encode('B07TEA0001').slice(1)).toEqual(tok.encode('b07tea0001'));
    // Mixed case is spelled as written.
    expect(strings('B07tea')).toEqual(['B', '##0', '##7', '##t', '##e', '##a']);
    // Letters and digits mixed make an id; digits alone stay digits, words stay words.
    expect(strings('28w x 30 oz')).toEqual(['2', '##8', '##w', 'x', '3', '0', 'oz']);
  });

  it('spells a word it lacks instead of <unk>, and round-trips it', () => {
    expect(strings('turn sideways')).toEqual(['turn', 's', '##i', '##d', '##e', '##w', '##a', '##y', '##s']);
    expect(tok.decode(tok.encode('Zyx, turn: qq.'))).toBe('Zyx, turn: qq.');
    // Non-ASCII letters cannot be spelled.
    expect(tok.encode('café')).toEqual([tok.special['<unk>']]);
  });

  it('writes <caps> ids in upper case, spacing as the first character says', () => {
    for (const t of ['x B07TEA0001 y', 'click[b07tea0001] B07TEA0001, 4K', '(B07TEA0001)', 'A1 b2']) {
      expect(tok.decode(tok.encode(t))).toBe(t);
    }
    const id = (t: string) => tok.idOf(t) as number;
    // <caps> lasts through the pieces after its character and ends at the next token.
    expect(tok.decode([id('<caps>'), id('b'), id('##0'), id('##t'), id('b'), id('##t')])).toBe('B0T bt');
  });

  it('with indexedPieces spells ids with pieces that carry their index', () => {
    const ix = new Tokenizer(buildVocabulary(ALL, { pieces: true, indexedPieces: true }));
    const s = (t: string) => ix.tokenStrings(ix.encode(t));
    expect(s('click[b07tea0001]')).toEqual([
      'click',
      '[',
      'b',
      '#10',
      '#27',
      '#3t',
      '#4e',
      '#5a',
      '#60',
      '#70',
      '#80',
      '#91',
      ']',
    ]);
    expect(s('B07TEA0001').slice(0, 3)).toEqual(['<caps>', 'b', '#10']);
    // Past index 9, and in words, plain pieces.
    expect(s('ab1cdefghijk').slice(-3)).toEqual(['#9i', '##j', '##k']);
    expect(s('zyx')).toEqual(['z', '##y', '##x']);
    for (const t of [...ALL, 'x B07TEA0001, b07tea0001 (ab1cdefghijk) 28w'])
      expect(ix.decode(ix.encode(t))).toBe(t);
  });

  it('with wholeIds keeps the ids it saw as one lower-case token, <caps> before upper case', () => {
    const whole = new Tokenizer(buildVocabulary(ALL, { pieces: true, wholeIds: true }));
    const s = (t: string) => whole.tokenStrings(whole.encode(t));
    expect(whole.idOf('b07tea0001')).toBeDefined();
    expect(whole.idOf('B07TEA0001')).toBeUndefined();
    expect(s('[SEP] B07TEA0001 [SEP]')).toEqual(['[SEP]', '<caps>', 'b07tea0001', '[SEP]']);
    expect(s('click[b07tea0001]')).toEqual(['click', '[', 'b07tea0001', ']']);
    // An id it never saw, or one in mixed case, is spelled.
    expect(s('click[b9]')).toEqual(['click', '[', 'b', '##9', ']']);
    expect(s('B07tea0001')[0]).toBe('B');
    for (const t of [...ALL, 'x B07TEA0001, b07tea0001 (B07TEA0001)'])
      expect(whole.decode(whole.encode(t))).toBe(t);
  });

  it('joins a piece to whatever precedes it, a stray marker included', () => {
    const id = (t: string) => tok.idOf(t) as number;
    expect(defaultSpace('b', '##0')).toBe(false);
    expect(defaultSpace('##0', 'Tea')).toBe(true);
    expect(defaultSpace('##0', ']')).toBe(false);
    expect(tok.decode([id('##x'), id('b'), tok.special['<sp>'], id('##1')])).toBe('x b1');
  });

  it('serialises to JSON and back, and refuses a version-2 vocabulary without its pieces', () => {
    const again = new Tokenizer(JSON.parse(JSON.stringify(tok.toJSON())));
    expect(again.encode(WEBSHOP[2] as string)).toEqual(tok.encode(WEBSHOP[2] as string));
    const broken = { ...tok.vocab, tokens: tok.vocab.tokens.filter((t) => t !== '##Q') };
    expect(() => new Tokenizer(broken)).toThrow(/must hold "##Q"/);
    expect(() => new Tokenizer({ ...tok.vocab, version: 3 as 2 })).toThrow(/version: 1 or 2/);
  });
});

describe('shipped checkpoints', () => {
  const dir = new URL('../../public/models/', import.meta.url);
  const manifests = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'index.json');

  it.each(manifests)('%s: its vocabulary loads and encodes its own words as single tokens', (file) => {
    const vocab = JSON.parse(readFileSync(new URL(file, dir), 'utf8')).vocabulary as Vocabulary;
    const tok = new Tokenizer(vocab);
    const words = vocab.tokens.filter((t) => /^\p{L}+$/u.test(t)).slice(0, 40);
    const text = words.join(' ');
    // A version-1 vocabulary gives each of its words its own id, as before pieces existed.
    if (vocab.version === 1) expect(tok.encode(text)).toEqual(words.map((w) => tok.idOf(w)));
    expect(tok.decode(tok.encode(text))).toBe(text);
  });
});
