import jsep from 'jsep';
import { describe, expect, it } from 'vitest';
import {
  EXPRESSION_LIMITS,
  type ExpressionLevel,
  type ExpressionNode,
  evaluatePeriod,
  evaluateRow,
  explainExpression,
  expressionColumns,
  expressionHash,
  FUNCTIONS,
  parseExpression,
  roundDecimal,
} from './expressions/index.js';

const COLUMNS = ['fall', 'injury', 'patient_days', 'falls', 'ward', 'age', 'score'];

function parse(text: string, level: ExpressionLevel = 'period') {
  return parseExpression(text, { columns: COLUMNS, level });
}

function ast(text: string, level: ExpressionLevel = 'period'): ExpressionNode {
  const result = parse(text, level);
  if (!result.ok) throw new Error(`${text}: ${JSON.stringify(result.errors)}`);
  return result.ast;
}

function errorsOf(text: string, level: ExpressionLevel = 'period') {
  const result = parse(text, level);
  if (result.ok) throw new Error(`${text} was accepted`);
  return result.errors;
}

const WORKED = 'countIf(fall == 1 && injury == 1) / sum(patient_days) * 1000';
// 2 rows with a fall causing injury over 42 patient days -> 2 / 42 * 1000 = 47.619...
const WORKED_ROWS = [
  { fall: 1, injury: 1, patient_days: 10 },
  { fall: 1, injury: 0, patient_days: 8 },
  { fall: 0, injury: 1, patient_days: 6 },
  { fall: true, injury: '1', patient_days: 12 },
  { fall: null, patient_days: 6 },
];

describe('the worked example', () => {
  it('parses, lists its columns and computes 47.619', () => {
    const result = parse(WORKED);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.columns).toEqual(['fall', 'injury', 'patient_days']);
    expect(result.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(evaluatePeriod(result.ast, WORKED_ROWS)).toBeCloseTo(47.619, 3);
  });

  it('is explained in English', () => {
    expect(explainExpression(ast(WORKED))).toBe(
      'the number of rows where fall equals 1 and injury equals 1, divided by the sum of patient_days, times 1000',
    );
    expect(explainExpression(ast('sum(patient_days)'), { labels: { patient_days: 'Patient days' } })).toBe(
      'the sum of Patient days',
    );
  });
});

describe('refused probes (DOMAIN.md [L2])', () => {
  it.each([
    ["constructor.constructor('x')()", /Only the listed functions can be called/],
    ['fall.constructor', /Property access/],
    ['__proto__', /Unknown column '__proto__'/],
    ['this', /'this' is not allowed/],
    ['[1,2]', /Lists/],
    ['a = 1', /Use == to compare/],
    ['a; b', /single expression/],
    ['a[0]', /Property access/],
    ['x => x', /Arrow functions/],
    ['2 ** 3', /Powers/],
    ['fall === 1', /Use == to compare/],
    ['fall | 1', /Bitwise/],
    ['~fall', /Bitwise/],
    ['fall ?? 1', /coalesce/],
    ['(fall, injury)', /Commas/],
    ['fall injury', /operator missing/],
    ['null', /'null' is not allowed/],
    ["'x'.length", /Property access/],
    ['toString()', /Unknown function 'toString'/],
    ['hasOwnProperty(fall)', /Unknown function/],
    ['sum.call(fall)', /Only the listed functions/],
  ])('%s', (text, message) => {
    for (const level of ['row', 'period'] as const) {
      const errors = errorsOf(text, level);
      expect(errors.map((e) => e.message).join(' | ')).toMatch(message);
    }
  });

  it('does not reconfigure the shared jsep instance', () => {
    expect(Object.keys(jsep.binary_ops)).toContain('**');
    expect(jsep('2 ** 3')).toMatchObject({ type: 'BinaryExpression', operator: '**' });
  });

  it('ignores column keys that are not valid keys, and reads rows without prototype lookups', () => {
    const result = parseExpression('__proto__', { columns: ['__proto__', 'constructor'], level: 'row' });
    expect(result.ok).toBe(false);
    const ctor = parseExpression('constructor', { columns: ['constructor'], level: 'row' });
    expect(ctor.ok).toBe(true);
    if (ctor.ok) expect(evaluateRow(ctor.ast, {})).toBeNull();
  });
});

describe('error messages and positions', () => {
  it.each([
    // text, start, end, message
    ['sum(patient_days) / sum(fals) * 2', 24, 28, "Unknown column 'fals'. Did you mean 'falls'?"],
    ['sum(fall) + foo(1)', 12, 15, "Unknown function 'foo'."],
    ['summ(fall)', 0, 4, "Unknown function 'summ'. Did you mean 'sum'?"],
    ['1 + sum(fall, injury)', 4, 7, "'sum' needs 1 argument."],
    ['sumIf(fall)', 0, 5, "'sumIf' needs 2 arguments."],
    ['round(sum(fall), 1, 2)', 0, 5, "'round' needs 1 or 2 arguments."],
    ['count(fall)', 0, 5, "'count' takes no arguments."],
    ['coalesce(sum(fall))', 0, 8, "'coalesce' needs at least 2 arguments."],
    ['sum(fall) + sum', 12, 15, "'sum' is a function: write sum(...)."],
    ['sum(fall) * 2 ** 3', 14, 16, "Powers ('**') are not allowed."],
    ['sum(fall) +', 11, 11, 'Expected expression after + at the end.'],
    ['sum(fall) + )', 12, 13, 'Expected expression after +.'],
    ['sum(fall) ? 1', 13, 13, 'Expected : at the end.'],
  ])('%s', (text, start, end, message) => {
    expect(errorsOf(text)).toEqual([{ start, end, message }]);
  });

  it('points at the second occurrence when the same name appears twice', () => {
    const errors = errorsOf('sum(fall) + abs(sum(fall)) + fals', 'period');
    expect(errors).toEqual([{ start: 29, end: 33, message: "Unknown column 'fals'. Did you mean 'falls'?" }]);
    const twice = errorsOf('sum(fall * fall) + fall', 'period');
    expect(twice).toEqual([
      { start: 19, end: 23, message: 'A column must be inside an aggregate such as sum() in a period expression.' },
    ]);
  });

  it('reports several errors in order', () => {
    expect(errorsOf('sum(foo) + bar(1)').map((e) => [e.start, e.end])).toEqual([
      [4, 7],
      [11, 14],
    ]);
  });

  it('refuses empty text', () => {
    expect(errorsOf('   ')).toEqual([{ start: 0, end: 3, message: 'The expression is empty.' }]);
  });
});

describe('row and period levels', () => {
  it.each([
    ['fall + injury', 'row', true],
    ['fall == 1 ? 1 : 0', 'row', true],
    ["if(ward == 'A', age, 0)", 'row', true],
    ['sum(fall)', 'row', false],
    ['abs(age) + count()', 'row', false],
    ['sum(fall)', 'period', true],
    ['count()', 'period', true],
    ['1000', 'period', true],
    ['round(mean(age), 1)', 'period', true],
    ['fall', 'period', false],
    ['sum(fall) / patient_days', 'period', false],
    ['sum(max(fall))', 'period', false],
    ['countIf(count() > 1)', 'period', false],
  ] as const)('%s at %s level -> %s', (text, level, ok) => {
    expect(parse(text, level).ok).toBe(ok);
  });

  it('says why', () => {
    expect(errorsOf('1 + sum(fall)', 'row')).toEqual([
      { start: 4, end: 13, message: 'Aggregates such as sum() cannot be used in a row expression.' },
    ]);
    expect(errorsOf('sum(fall) / patient_days', 'period')).toEqual([
      { start: 12, end: 24, message: 'A column must be inside an aggregate such as sum() in a period expression.' },
    ]);
    expect(errorsOf('sum(max(fall))', 'period')).toEqual([
      { start: 4, end: 13, message: "'max' cannot be used inside another aggregate such as sum()." },
    ]);
  });
});

describe('evaluation', () => {
  it.each([
    ['fall + injury', { fall: 1, injury: 2 }, 3],
    ['fall / injury', { fall: 1, injury: 0 }, null],
    ['fall % injury', { fall: 1, injury: 0 }, null],
    ['fall + injury', { fall: 1 }, null],
    ['fall + injury', { fall: 1, injury: null }, null],
    ['-fall', { fall: '3' }, -3],
    ['fall * 2', { fall: 'abc' }, null],
    ['fall == 1', { fall: true }, true],
    ["ward == 'A'", { ward: 'A' }, true],
    ["ward != 'A'", { ward: 'B' }, true],
    ['age >= 65 && fall == 1', { age: 70, fall: 1 }, true],
    ['age >= 65 && fall == 1', { age: 70 }, null],
    ['age >= 65 || fall == 1', { age: 70 }, true],
    ['!(fall == 1)', { fall: 0 }, true],
    ["age > 65 ? 'old' : 'young'", { age: 70 }, 'old'],
    ["age > 65 ? 'old' : 'young'", {}, 'young'],
    ['coalesce(fall, injury, 0)', { injury: 4 }, 4],
    ['clamp(age, 0, 100)', { age: 130 }, 100],
    ['round(score, 2)', { score: 1.23456 }, 1.23],
    ['round(score)', { score: -2.5 }, -3],
    ['abs(score)', { score: -2 }, 2],
    ["if(ward == 'A', 1, 2)", { ward: 'B' }, 2],
    ['fall', Object.create({ fall: 1 }), null],
  ])('%s on %j -> %j', (text, row, expected) => {
    expect(evaluateRow(ast(text, 'row'), row as Record<string, unknown>)).toBe(expected);
  });

  const rows = [
    { fall: 1, age: 80, ward: 'A', patient_days: 5 },
    { fall: 0, age: 60, ward: 'B', patient_days: 0 },
    { fall: 1, age: null, ward: 'A', patient_days: 3 },
    { fall: 1, age: 70, ward: 'C' },
  ];

  it.each([
    ['count()', rows, 4],
    ['countIf(fall == 1)', rows, 3],
    ['sum(patient_days)', rows, 8],
    ['sumIf(patient_days, ward == "A")', rows, 8],
    ['mean(age)', rows, 70],
    ['avg(age)', rows, 70],
    ['median(age)', rows, 70],
    ['min(age)', rows, 60],
    ['max(age)', rows, 80],
    ['distinctCount(ward)', rows, 3],
    ['countIf(fall == 1) / countIf(fall == 2)', rows, null],
    ['count()', [], 0],
    ['countIf(fall == 1)', [], 0],
    ['sum(patient_days)', [], 0],
    ['distinctCount(ward)', [], 0],
    ['mean(age)', [], null],
    ['median(age)', [], null],
    ['min(age)', [], null],
    ['max(age)', [], null],
    [WORKED, [], null],
    ['countIf(fall == 1) > 2', rows, 1],
  ])('%s -> %j', (text, periodRows, expected) => {
    expect(evaluatePeriod(ast(text, 'period'), periodRows)).toBe(expected);
  });

  it('refuses to evaluate an AST at the wrong level', () => {
    expect(() => evaluateRow(ast('sum(fall)'), {})).toThrow();
    expect(() => evaluatePeriod(ast('fall', 'row'), [])).toThrow();
  });

  it('lists the columns an expression reads, and nothing else', () => {
    expect([...expressionColumns(ast(WORKED))].sort()).toEqual(['fall', 'injury', 'patient_days']);
    expect([...expressionColumns(ast('count() + 1'))]).toEqual([]);
    expect([...expressionColumns(ast("if(ward == 'ICU', -age, score ? 1 : 0)", 'row'))].sort()).toEqual([
      'age',
      'score',
      'ward',
    ]);
  });
});

describe('round: halves away from zero on the decimal as written (PostgreSQL numeric, Excel ROUND)', () => {
  // PostgreSQL: SELECT round(1.005::numeric, 2) -> 1.01, round(-1.005::numeric, 2) -> -1.01,
  // round(2.675::numeric, 2) -> 2.68; Excel: =ROUND(1.005, 2) -> 1.01, =ROUND(2.675, 2) -> 2.68. The doubles
  // nearest 1.005 and 2.675 lie just below them, so rounding 1.005 * 100 in binary gave 1 and 2.67.
  it.each([
    [1.005, 2, 1.01],
    [-1.005, 2, -1.01],
    [2.675, 2, 2.68],
    [1.0049999, 2, 1],
    [1.23456, 2, 1.23],
    [9.995, 2, 10],
    [0.5, 0, 1],
    [-0.5, 0, -1],
    [-2.5, 0, -3],
    [1.45, 1, 1.5],
    [0.005, 2, 0.01],
    [5e-7, 6, 0.000001],
    [5e-8, 6, 0],
    [123.456, 0, 123],
    [1e21, 2, 1e21],
    [0.1 + 0.2, 2, 0.3],
    [1.23456789012345, 12, 1.234567890123],
    [1.5, 20, 1.5],
    [1.5, -1, 2],
  ])('round(%d, %d) = %d', (x, digits, expected) => {
    expect(roundDecimal(x, digits)).toBe(expected);
  });

  it('gives 0, not -0, when a negative value rounds to zero', () => {
    expect(Object.is(roundDecimal(-0.004, 2), 0)).toBe(true);
  });

  it.each([
    ['round(score, 2)', { score: 1.005 }, 1.01],
    ['round(score, 2)', { score: -1.005 }, -1.01],
    ['round(score, 2)', { score: 2.675 }, 2.68],
    ['round(score, 2)', { score: '1.005' }, 1.01],
  ])('%s on %j -> %j', (text, row, expected) => {
    expect(evaluateRow(ast(text, 'row'), row)).toBe(expected);
  });
});

describe('limits', () => {
  const balancedCalls = (n: number): string =>
    n === 1 ? 'abs(1)' : `(${balancedCalls(Math.floor(n / 2))}+${balancedCalls(Math.ceil(n / 2))})`;

  it('allows the limits themselves', () => {
    expect(parse(`1 +${' '.repeat(EXPRESSION_LIMITS.maxLength - 4)}2`).ok).toBe(true);
    expect(parse(Array(20).fill('1').join('+')).ok).toBe(true);
    expect(parse(balancedCalls(50)).ok).toBe(true);
  });

  it('refuses 501 characters', () => {
    const text = `1+${' '.repeat(497)}22`;
    expect(text).toHaveLength(501);
    expect(errorsOf(text)).toEqual([
      { start: 500, end: 501, message: 'The expression is too long (501 characters; the limit is 500).' },
    ]);
  });

  it('refuses depth 21', () => {
    const errors = errorsOf(Array(21).fill('1').join('+'));
    expect(errors).toEqual([
      { start: 0, end: 1, message: 'The expression is nested too deeply (the limit is 20 levels).' },
    ]);
  });

  it('refuses 51 function calls', () => {
    const text = balancedCalls(51);
    expect(text.length).toBeLessThanOrEqual(500);
    const errors = errorsOf(text);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe('Too many function calls (the limit is 50).');
    expect(text.slice(errors[0]!.start, errors[0]!.end)).toBe('abs');
    expect(errors[0]!.start).toBe(text.lastIndexOf('abs'));
  });
});

describe('hash and explanation', () => {
  it('is stable across whitespace and redundant parentheses, and changes with the expression', () => {
    const base = parse(WORKED);
    const spaced = parse('  countIf( fall==1&&injury==1 )/sum(patient_days)*1000 ');
    const grouped = parse('(countIf((fall == 1) && (injury == 1)) / sum(patient_days)) * 1000');
    const changed = parse('countIf(fall == 1 && injury == 1) / sum(patient_days) * 100');
    const other = parse('countIf(fall == 1 || injury == 1) / sum(patient_days) * 1000');
    expect(base.ok && spaced.ok && grouped.ok && changed.ok && other.ok).toBe(true);
    if (!base.ok || !spaced.ok || !grouped.ok || !changed.ok || !other.ok) return;
    expect(spaced.hash).toBe(base.hash);
    expect(grouped.hash).toBe(base.hash);
    expect(changed.hash).not.toBe(base.hash);
    expect(other.hash).not.toBe(base.hash);
    // avg is stored as mean
    expect((parse('avg(age)') as { hash: string }).hash).toBe((parse('mean(age)') as { hash: string }).hash);
    // the hash does not depend on key order (jsonb)
    const reordered = JSON.parse(JSON.stringify(base.ast), (_key, value) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).reverse())
        : value,
    );
    expect(Object.keys(reordered)).not.toEqual(Object.keys(base.ast));
    expect(expressionHash(reordered)).toBe(base.hash);
  });

  it.each([
    ['sum(fall) - sum(injury) - 1', 'the sum of fall minus the sum of injury minus 1'],
    ['sum(fall) - (sum(injury) - 1)', 'the sum of fall minus (the sum of injury minus 1)'],
    ['sumIf(patient_days, ward == "A")', "the sum of patient_days over rows where ward equals 'A'"],
    ['round(mean(age), 1)', 'the mean of age rounded to 1 decimal places'],
    ['distinctCount(ward)', 'the number of different values of ward'],
    ['count() > 0 ? 1 : 0', 'if the number of rows is more than 0 then 1, otherwise 0'],
  ])('%s', (text, expected) => {
    expect(explainExpression(ast(text))).toBe(expected);
  });
});

describe('FUNCTIONS', () => {
  it('lists every whitelisted function once with its kind and arity', () => {
    const names = FUNCTIONS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['count', 'countIf', 'sum', 'sumIf', 'mean', 'avg', 'median', 'min', 'max']),
    );
    expect(names).toEqual(expect.arrayContaining(['distinctCount', 'abs', 'round', 'coalesce', 'clamp', 'if']));
    for (const f of FUNCTIONS) {
      expect(f.description.length).toBeGreaterThan(0);
      expect(['aggregate', 'scalar']).toContain(f.kind);
    }
  });
});
