import { describe, expect, it } from 'vitest';
import { type DetectInput, detectCsv } from './detect.js';
import { keyFromHeader, uniqueKey } from './keys.js';
import { phiKind } from './phi.js';
import { LineCounter } from './store.js';
import { decodeWindows1252 } from './windows-1252.js';

/** Detection as the upload runs it: the whole (small) file is the head. */
function detect(file: string | Buffer, extra: Partial<DetectInput> = {}) {
  const head = typeof file === 'string' ? Buffer.from(file, 'utf8') : file;
  const counter = new LineCounter();
  counter.push(head);
  let utf8Valid = true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head);
  } catch {
    utf8Valid = false;
  }
  return detectCsv({
    head,
    complete: true,
    utf8Valid,
    lines: counter.end(),
    existing: [],
    existingTimeColumn: null,
    ...extra,
  });
}

const types = (detected: ReturnType<typeof detect>) => detected.columns.map((column) => [column.key, column.type]);

describe('CSV detection', () => {
  it('reads a comma file with a header: types, keys, labels, date format, time column and row count', () => {
    const detected = detect(
      'Month,Ward,Falls with injury,Patient days,Audited\n' +
        '2026-01-01,North,3,"1,234",yes\n' +
        '2026-02-01,South,N/A,"12,500",no\n' +
        '2026-03-01,North,-,980,\n',
    );
    expect(detected).toMatchObject({
      delimiter: ',',
      encoding: 'utf-8',
      has_header: true,
      headers: ['Month', 'Ward', 'Falls with injury', 'Patient days', 'Audited'],
      date_format: 'YYYY-MM-DD',
      date_format_choices: [],
      time_column: 'month',
      row_count: 3,
    });
    expect(types(detected)).toEqual([
      ['month', 'date'],
      ['ward', 'text'],
      ['falls_with_injury', 'number'],
      ['patient_days', 'number'],
      ['audited', 'boolean'],
    ]);
    expect(detected.columns[2]).toMatchObject({ source: 2, header: 'Falls with injury', label: 'Falls with injury' });
    expect(detected.sample[0]).toEqual(['2026-01-01', 'North', '3', '1,234', 'yes']);
  });

  it.each([
    [';', 'Datum;Station;Stürze\n01.02.2026;A;3\n02.02.2026;B;4\n', 'DD.MM.YYYY'],
    ['\t', 'period\tunit\tcount\n2026-01\tA\t3\n2026-02\tB\t1\n', 'YYYY-MM'],
    ['|', 'date|unit|count\n2026-01-05|A|3\n2026-01-06|B|1\n', 'YYYY-MM-DD'],
  ])('finds the delimiter %j and the date format', (delimiter, file, format) => {
    const detected = detect(file);
    expect(detected.delimiter).toBe(delimiter);
    expect(detected.date_format).toBe(format);
    expect(detected.columns).toHaveLength(3);
    expect(detected.columns[0]!.type).toBe('date');
  });

  it('keeps a comma inside quotes in one value and counts quoted line breaks as one row', () => {
    const detected = detect('date,comment,n\n2026-01-01,"Ward A, east wing",3\n2026-01-02,"two\nlines",4\n');
    expect(detected.delimiter).toBe(',');
    expect(detected.row_count).toBe(2);
    expect(detected.sample[1]).toEqual(['2026-01-02', 'two\nlines', '4']);
  });

  it('recognises a UTF-8 byte order mark and leaves it out of the first header', () => {
    const file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Unité,date\nRéa,2026-01-01\n')]);
    const detected = detect(file);
    expect(detected.encoding).toBe('utf-8-bom');
    expect(detected.headers).toEqual(['Unité', 'date']);
    expect(detected.columns[0]!.key).toBe('unite');
  });

  it('reads a file that is not UTF-8 as Windows-1252 (é, €)', () => {
    const file = Buffer.from('Unité;Coût;date\nRéa;12;2026-01-01\n', 'latin1');
    const detected = detect(file);
    expect(detected.encoding).toBe('windows-1252');
    expect(detected.headers).toEqual(['Unité', 'Coût', 'date']);
    expect(detected.sample[0]![0]).toBe('Réa');
    const euro = detect(Buffer.from([...Buffer.from('cost,date\n'), 0x80, ...Buffer.from('5,2026-01-01\n')]));
    expect(euro.sample[0]![0]).toBe('€5');
  });

  it('asks when the dates are ambiguous (03/04/2026) and decides when a day is above 12', () => {
    const ambiguous = detect('date,n\n03/04/2026,1\n05/06/2026,2\n');
    expect(ambiguous.date_format).toBeNull();
    expect(ambiguous.date_format_choices).toEqual(['MM/DD/YYYY', 'DD/MM/YYYY']);
    expect(ambiguous.columns[0]!.type).toBe('date');
    expect(detect('date,n\n03/04/2026,1\n13/06/2026,2\n')).toMatchObject({
      date_format: 'DD/MM/YYYY',
      date_format_choices: [],
    });
    expect(detect('date,n\n03/04/2026,1\n06/13/2026,2\n').date_format).toBe('MM/DD/YYYY');
  });

  it('reads thousands separators as numbers and N/A, NULL, - and blanks as nulls', () => {
    const detected = detect('date,a,b,c\n2026-01-01,"1,234.5",N/A,12 345\n2026-01-02,-5,NULL,1 000\n2026-01-03,,-,7\n');
    expect(types(detected)).toEqual([
      ['date', 'date'],
      ['a', 'number'],
      ['b', 'text'],
      ['c', 'number'],
    ]);
  });

  it('sees a file without a header and names its columns', () => {
    const detected = detect('2026-01-01,3\n2026-02-01,4\n');
    expect(detected).toMatchObject({ has_header: false, headers: ['Column 1', 'Column 2'], row_count: 2 });
    expect(detected.columns.map((column) => column.key)).toEqual(['column_1', 'column_2']);
  });

  it('flags columns that look like patient identifiers, not aggregate ones', () => {
    const detected = detect(
      'Patient Name,MRN,DOB,Discharge date,Email,Street address,Ward name,Discharges,Month\n' +
        'Ann,123,1950-01-01,2026-01-03,a@b.c,1 Main St,North,3,2026-01-01\n',
    );
    expect(detected.columns.map((column) => [column.header, column.phi])).toEqual([
      ['Patient Name', true],
      ['MRN', true],
      ['DOB', true],
      ['Discharge date', true],
      ['Email', true],
      ['Street address', true],
      ['Ward name', false],
      ['Discharges', false],
      ['Month', false],
    ]);
    expect(detected.time_column).toBe('discharge_date');
  });

  it('suggests the dataset’s existing keys for matching headers', () => {
    const detected = detect('Month,Falls,Beds\n2026-01-01,3,20\n', {
      existing: [
        { key: 'period', label: 'Month', type: 'date', phi: false },
        { key: 'falls_total', label: 'falls', type: 'number', phi: false },
      ],
      existingTimeColumn: 'period',
    });
    expect(detected.columns.map((column) => column.key)).toEqual(['period', 'falls_total', 'beds']);
    expect(detected.time_column).toBe('period');
  });
});

describe('column keys', () => {
  it('makes valid, unique snake_case keys', () => {
    expect(keyFromHeader('Patient days', 0)).toBe('patient_days');
    expect(keyFromHeader('PatientDays', 0)).toBe('patient_days');
    expect(keyFromHeader('Rate (%)', 0)).toBe('rate');
    expect(keyFromHeader('2026 total', 0)).toBe('c_2026_total');
    expect(keyFromHeader('%', 4)).toBe('column_5');
    expect(keyFromHeader('True', 0)).toBe('true_value');
    expect(keyFromHeader('x'.repeat(80), 0)).toHaveLength(63);
    const taken = new Set<string>();
    expect(['rate', 'rate', 'rate'].map((key) => uniqueKey(key, taken))).toEqual(['rate', 'rate_2', 'rate_3']);
    for (const key of taken) expect(key).toMatch(/^[a-z][a-z0-9_]{0,62}$/);
  });
});

describe('patient identifier headers', () => {
  it.each([
    ['first_name', 'name'],
    ['PatientName', 'name'],
    ['Medical record number', 'medical record number'],
    ['patient_id', 'medical record number'],
    ['Date of birth', 'date of birth'],
    ['birthdate', 'date of birth'],
    ['SSN', 'social security number'],
    ['Zip code', 'address'],
    ['Phone', 'phone number'],
    ['e-mail', 'email address'],
    ['Admission date', 'admission or discharge date'],
    ['admit_dt', 'admission or discharge date'],
  ])('%s is a %s', (header, kind) => {
    expect(phiKind(header)).toBe(kind);
  });

  it.each(['Ward', 'Unit name', 'Discharges', 'Admissions', 'Patient days', 'Month', 'Falls'])(
    '%s is not an identifier',
    (header) => {
      expect(phiKind(header)).toBeNull();
    },
  );
});

describe('line counter', () => {
  it('counts records, not line breaks inside quotes, blank lines or delimiter-only lines', () => {
    const counter = new LineCounter();
    for (const piece of ['\ufeffa,b\r\n1,"x', '\ny"\r\n\r\n,,\r\n', '3,4']) counter.push(Buffer.from(piece));
    expect(counter.end()).toBe(3);
  });
});

describe('Windows-1252', () => {
  it('decodes 0x80-0x9F as Windows-1252 does (Node 20 decodes them as Latin-1)', () => {
    expect(decodeWindows1252(Buffer.from([0x80, 0x93, 0x94, 0x99, 0x9f, 0xe9, 0x41]))).toBe('€“”™Ÿé\u0041');
  });
});
