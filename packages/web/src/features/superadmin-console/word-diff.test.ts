import { describe, expect, it } from 'vitest';
import { type DiffPart, diffWords, GLUED, tokenize } from './word-diff';

/** The text one side of the diff reads as. */
function side(parts: DiffPart[], which: 'before' | 'after'): string {
  const skip = which === 'before' ? 'added' : 'removed';
  return parts
    .filter((part) => part.kind !== skip)
    .map((part) => part.text)
    .join('')
    .replace(/ +/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();
}

function normalise(text: string): string {
  return tokenize(text)
    .join(' ')
    .replace(/ ?\n ?/g, '\n');
}

/** A deterministic pseudo-random text of `count` words in paragraphs of 40. */
function lorem(count: number, seed = 1): string {
  const vocabulary = 'patient care record consent privacy data portal access policy the of and to a in must may'.split(
    ' ',
  );
  let state = seed;
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    words.push(vocabulary[state % vocabulary.length]!);
    if (i % 40 === 39) words.push('\n');
  }
  return words.join(' ');
}

describe('tokenize', () => {
  it('splits words on any white space and marks paragraph breaks once', () => {
    expect(tokenize('  One  two\tthree \n\n\n Four \n')).toEqual(['One', 'two', 'three', '\n', 'Four']);
    expect(tokenize(' \n ')).toEqual([]);
  });

  it('keeps punctuation apart from words, glued to what it follows', () => {
    expect(tokenize("(See don't e-mail.) Done!")).toEqual([
      '(',
      `${GLUED}See`,
      "don't",
      'e-mail',
      `${GLUED}.)`,
      'Done',
      `${GLUED}!`,
    ]);
  });
});

describe('diffWords', () => {
  it('finds nothing between equal texts', () => {
    const diff = diffWords('Use is monitored.\nSecond', 'Use  is monitored.\n\nSecond');
    expect(diff).toEqual({ parts: [{ kind: 'same', text: 'Use is monitored.\nSecond' }], removed: 0, added: 0 });
  });

  it('marks a replaced word as removed then added, with the spaces around it unchanged', () => {
    const diff = diffWords('the cat sat on the mat', 'the dog sat on the mat');
    expect(diff.parts).toEqual([
      { kind: 'same', text: 'the ' },
      { kind: 'removed', text: 'cat' },
      { kind: 'same', text: ' ' },
      { kind: 'added', text: 'dog' },
      { kind: 'same', text: ' sat on the mat' },
    ]);
    expect(diff.removed).toBe(1);
    expect(diff.added).toBe(1);
  });

  it('shows insertions and deletions at the start, middle and end', () => {
    const diff = diffWords('b c d e', 'a b c e f');
    expect(diff.parts).toEqual([
      { kind: 'added', text: 'a' },
      { kind: 'same', text: ' b c ' },
      { kind: 'removed', text: 'd' },
      { kind: 'same', text: ' e ' },
      { kind: 'added', text: 'f' },
    ]);
    expect([diff.removed, diff.added]).toEqual([1, 2]);
  });

  it('compares words without their punctuation, and puts no space before punctuation', () => {
    const diff = diffWords('The portal is monitored.', 'The portal is monitored and logged.');
    expect(diff.parts).toEqual([
      { kind: 'same', text: 'The portal is monitored ' },
      { kind: 'added', text: 'and logged' },
      { kind: 'same', text: '.' },
    ]);
    expect([diff.removed, diff.added]).toEqual([0, 2]);
    expect(diffWords('Stop.', 'Stop!').parts).toEqual([
      { kind: 'same', text: 'Stop' },
      { kind: 'removed', text: '.' },
      { kind: 'added', text: '!' },
    ]);
  });

  it('handles an empty side', () => {
    expect(diffWords('', 'New terms').parts).toEqual([{ kind: 'added', text: 'New terms' }]);
    expect(diffWords('Old terms', '').parts).toEqual([{ kind: 'removed', text: 'Old terms' }]);
    expect(diffWords('', '').parts).toEqual([]);
  });

  it('keeps paragraphs apart and reports an added paragraph whole', () => {
    const diff = diffWords('First paragraph.\nThird paragraph.', 'First paragraph.\nSecond one.\nThird paragraph.');
    expect(side(diff.parts, 'before')).toBe('First paragraph.\nThird paragraph.');
    expect(side(diff.parts, 'after')).toBe('First paragraph.\nSecond one.\nThird paragraph.');
    expect(diff.parts.filter((part) => part.kind === 'added').map((part) => part.text.trim())).toEqual(['Second one.']);
    expect(diff.added).toBe(2);
    expect(diff.removed).toBe(0);
  });

  it('folds a lone common word between two changes into one change', () => {
    const diff = diffWords('alpha beta the gamma delta', 'one two the three four');
    expect(diff.parts).toEqual([
      { kind: 'removed', text: 'alpha beta the gamma delta' },
      { kind: 'same', text: ' ' },
      { kind: 'added', text: 'one two the three four' },
    ]);
  });

  it('is minimal: the unchanged words form a longest common subsequence', () => {
    const before = 'a b c a b b a';
    const after = 'c b a b a c';
    const diff = diffWords(before, after, { semanticCleanup: false });
    expect(side(diff.parts, 'before')).toBe(before);
    expect(side(diff.parts, 'after')).toBe(after);
    // Myers' example: edit distance 5, so 4 common words.
    const kept = diff.parts
      .filter((part) => part.kind === 'same')
      .flatMap((part) => part.text.split(' '))
      .filter(Boolean);
    expect(kept.length).toBeGreaterThanOrEqual(4);
  });

  it('always rebuilds both texts exactly, whatever the edits', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const before = lorem(120, seed);
      const after = lorem(100 + seed, seed * 7 + 3);
      const diff = diffWords(before, after);
      expect(side(diff.parts, 'before')).toBe(normalise(before));
      expect(side(diff.parts, 'after')).toBe(normalise(after));
    }
  });

  it('compares two 5,000-word versions quickly', () => {
    const before = lorem(5000, 42);
    const words = before.split(' ');
    // Twenty scattered edits: replacements, an insertion and a deletion.
    for (let i = 0; i < 20; i++) words[i * 240 + 17] = `changed${i}`;
    words.splice(2500, 0, 'inserted', 'clause');
    words.splice(4000, 3);
    const after = words.join(' ');

    const started = performance.now();
    const diff = diffWords(before, after);
    const elapsed = performance.now() - started;

    expect(side(diff.parts, 'before')).toBe(normalise(before));
    expect(side(diff.parts, 'after')).toBe(normalise(after));
    expect(diff.added).toBeLessThan(60);
    expect(elapsed).toBeLessThan(500);
  });

  it('gives up gracefully on two unrelated long texts: still correct, and bounded in time', () => {
    const before = lorem(5000, 1);
    const after = lorem(5000, 99_999);
    const started = performance.now();
    const diff = diffWords(before, after, { budget: 200_000 });
    const elapsed = performance.now() - started;
    expect(side(diff.parts, 'before')).toBe(normalise(before));
    expect(side(diff.parts, 'after')).toBe(normalise(after));
    expect(elapsed).toBeLessThan(1000);
    // With the default budget the same texts still finish in reasonable time.
    const full = performance.now();
    diffWords(before, after);
    expect(performance.now() - full).toBeLessThan(3000);
  });
});
