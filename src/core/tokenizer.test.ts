import { describe, expect, it } from 'vitest';
import { buildVocabulary, defaultSpace, normalizeText, SPECIAL_TOKENS, Tokenizer } from './tokenizer.js';

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
