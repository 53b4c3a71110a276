import { SUGGESTED_SYNONYM_GROUPS } from '@portal/shared';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { policyProject, publishDraft } from '../../../test/policy-kit.js';
import { auditEvents } from '../../db/schema/index.js';
import { prefixPart } from './search.service.js';
import { expandSynonyms } from './synonyms.service.js';

type Result = { id: number; title: string; rank: number; status: string };
type Answer = { results: Result[]; total: number; fuzzy: boolean; synonyms: string[] };

describe('policy search', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await policyProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const admin = await ctx.signedIn(s.people.admin);
    const reader = await ctx.signedIn(s.people.reader);
    const create = async (body: Record<string, unknown>, publish = true) => {
      const answer = await admin.post(`${base}/documents`, body);
      expect(answer.statusCode, answer.body).toBe(201);
      const doc = answer.json() as { id: number };
      if (publish) await publishDraft(db(), doc.id);
      return doc;
    };
    const search = async (agent: typeof admin, query: string) => {
      const answer = await agent.get(`${base}/search?${query}`);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json() as Answer;
    };
    const titles = (answer: Answer) => answer.results.map((r) => r.title);
    return { ...s, base, admin, reader, create, search, titles };
  }

  it('ranks title and number matches above body matches, and the last word matches as it is typed', async () => {
    const s = await setup();
    await s.create({ title: 'Visitor rules', number: '4', content: '<p>Visitors must observe isolation signs.</p>' });
    await s.create({ title: 'Isolation precautions', number: '5', content: '<p>Gowns and gloves.</p>' });
    await s.create({ title: 'Sepsis screening', number: '4.2', content: '<p>Screen every admission.</p>' });

    const isolation = await s.search(s.admin, 'q=isolation');
    expect(s.titles(isolation)).toEqual(['Isolation precautions', 'Visitor rules']);
    expect(isolation.results[0]!.rank).toBeGreaterThan(isolation.results[1]!.rank);
    expect(isolation.fuzzy).toBe(false);

    const number = await s.search(s.admin, 'q=4');
    expect(s.titles(number).slice(0, 2).sort()).toEqual(['Sepsis screening', 'Visitor rules']);

    // "isol" and "visitors must obs" as typed: the last word is a prefix.
    expect(s.titles(await s.search(s.admin, 'q=isol'))).toEqual(['Isolation precautions', 'Visitor rules']);
    // Typed past the stem the index holds (isolation is "isol").
    expect(s.titles(await s.search(s.admin, 'q=isolati'))).toEqual(['Isolation precautions', 'Visitor rules']);
    expect(s.titles(await s.search(s.admin, 'q=screeni'))).toEqual(['Sepsis screening']);
    expect(s.titles(await s.search(s.admin, `q=${encodeURIComponent('visitors must obs')}`))).toEqual([
      'Visitor rules',
    ]);
    // Tsquery syntax in the text is only text.
    const odd = await s.search(s.admin, `q=${encodeURIComponent("isol:* & | ! ( ' \\")}`);
    expect(odd.results.length).toBeLessThanOrEqual(2);
  });

  it('guesses titles for misspelt words, below the exact matches, and says so', async () => {
    const s = await setup();
    await s.create({ title: 'Hand hygiene', number: '1', content: '<p>Use alcohol-based rub.</p>' });
    await s.create({ title: 'Restraint and seclusion', number: '2', content: '<p>Least restrictive option.</p>' });
    await s.create({ title: 'Falls prevention', number: '3', content: '<p>Assess every patient on admission.</p>' });
    await s.create({ title: 'Oxygen therapy', number: '6', content: '<p>Hand the cylinder to porters.</p>' });

    for (const [q, title] of [
      ['hand hygeine', 'Hand hygiene'],
      ['resraint', 'Restraint and seclusion'],
      ['fals', 'Falls prevention'],
    ] as const) {
      const answer = await s.search(s.admin, `q=${encodeURIComponent(q)}`);
      expect(answer.results[0]?.title, q).toBe(title);
    }
    const typo = await s.search(s.admin, 'q=resraint');
    expect(typo.fuzzy).toBe(true);

    // Oxygen therapy's text has "hand" but not both words: no exact match, so the page says it is a guess; the word
    // alone is an exact match, and the title match ranks first.
    const mixed = await s.search(s.admin, `q=${encodeURIComponent('hand hygeine')}`);
    expect(mixed.fuzzy).toBe(true);
    const exact = await s.search(s.admin, 'q=hand');
    expect(s.titles(exact)[0]).toBe('Hand hygiene');
    expect(exact.fuzzy).toBe(false);

    const nothing = await s.search(s.admin, 'q=zzqxv');
    expect(nothing).toMatchObject({ results: [], total: 0, fuzzy: false });
  });

  it('widens the words with the project synonyms', async () => {
    const s = await setup();
    await s.create({ title: 'Handwashing', number: '1', content: '<p>Wash for twenty seconds.</p>' });
    await s.create({ title: 'Bedsores', number: '2', content: '<p>Turn the patient every two hours.</p>' });
    expect((await s.search(s.admin, `q=${encodeURIComponent('hand hygiene')}`)).fuzzy).toBe(false);

    const added = await s.admin.post(`${s.base}/search-synonyms/suggested`);
    expect(added.statusCode, added.body).toBe(200);
    const hygiene = await s.search(s.reader, `q=${encodeURIComponent('Hand   Hygiene')}`);
    expect(s.titles(hygiene)).toEqual(['Handwashing']);
    expect(hygiene.fuzzy).toBe(false);
    expect(hygiene.synonyms).toEqual(['handwashing', 'hand washing']);
    expect(s.titles(await s.search(s.reader, `q=${encodeURIComponent('pressure ulcer')}`))).toEqual(['Bedsores']);
    // Another project's groups change nothing here.
    const outsider = await ctx.signedIn(s.people.outsider);
    await outsider.post(`/api/projects/${s.other.id}/policy-management/search-synonyms`, {
      terms: ['wash', 'turn'],
    });
    expect(s.titles(await s.search(s.admin, 'q=turn'))).toEqual(['Bedsores']);
  });

  it('filters by department (and those below it), status and archive; a reader never finds a draft', async () => {
    const s = await setup();
    const nursing = (await s.admin.post(`${s.base}/departments`, { name: 'Nursing', code: 'NUR' })).json();
    const icu = (
      await s.admin.post(`${s.base}/departments`, { name: 'ICU', code: 'ICU', parent_id: nursing.id })
    ).json();
    const pharmacy = (await s.admin.post(`${s.base}/departments`, { name: 'Pharmacy', code: 'PHA' })).json();
    await s.create({ title: 'Oxygen on the ward', department_id: nursing.id, content: '<p>oxygen</p>' });
    await s.create({ title: 'Oxygen in intensive care', department_id: icu.id, content: '<p>oxygen</p>' });
    await s.create({ title: 'Oxygen cylinders', department_id: pharmacy.id, content: '<p>oxygen</p>' });
    await s.create({ title: 'Oxygen draft', content: '<p>oxygen</p>' }, false);
    const old = await s.create({ title: 'Oxygen old', content: '<p>oxygen</p>' });
    expect((await s.admin.post(`${s.base}/documents/${old.id}/archive`, {})).statusCode).toBe(200);
    const outsider = await ctx.signedIn(s.people.outsider);
    await outsider.post(`/api/projects/${s.other.id}/policy-management/documents`, {
      title: 'Oxygen elsewhere',
      content: '<p>oxygen</p>',
    });

    const sorted = async (agent: typeof s.admin, query: string) => s.titles(await s.search(agent, query)).sort();
    expect(await sorted(s.admin, `q=oxygen&department_id=${nursing.id}`)).toEqual([
      'Oxygen in intensive care',
      'Oxygen on the ward',
    ]);
    expect(await sorted(s.admin, `q=oxygen&department_id=${pharmacy.id}`)).toEqual(['Oxygen cylinders']);
    expect(await sorted(s.admin, 'q=oxygen&status=draft')).toEqual(['Oxygen draft']);
    expect(await sorted(s.admin, 'q=oxygen&status=archived')).toEqual(['Oxygen old']);
    expect(await sorted(s.admin, 'q=oxygen')).toHaveLength(4);
    expect(await sorted(s.admin, 'q=oxygen&include_archived=true')).toHaveLength(5);

    // The reader: published only, whatever the filters and however the title is guessed.
    expect(await sorted(s.reader, 'q=oxygen')).toEqual([
      'Oxygen cylinders',
      'Oxygen in intensive care',
      'Oxygen on the ward',
    ]);
    expect(await sorted(s.reader, 'q=oxygen&status=draft')).toEqual([]);
    expect(await sorted(s.reader, `q=${encodeURIComponent('oxygen draft')}`)).not.toContain('Oxygen draft');
    expect(await sorted(s.reader, 'q=oxygn+drft')).not.toContain('Oxygen draft');
    expect(await sorted(s.admin, 'q=oxygn+elsewhere')).not.toContain('Oxygen elsewhere');

    const badStatus = await s.admin.get(`${s.base}/search?q=oxygen&status=lost`);
    expect(badStatus.statusCode).toBe(400);
  });

  it('counts up to 1,000 matches and says when it stopped counting', async () => {
    const s = await setup();
    await s.create({ title: 'Few', content: '<p>dialysis</p>' });
    await db().execute(sql`insert into policy_documents (project_id, title, status, search_text)
      select ${s.project.id}, 'Policy ' || g, 'draft', 'telemetry monitoring' from generate_series(1, 1005) g`);
    const many = await s.search(s.admin, 'q=telemetry&limit=5');
    expect(many).toMatchObject({ total: 1000, total_capped: true, fuzzy: false });
    expect(many.results).toHaveLength(5);
    expect(await s.search(s.admin, 'q=dialysis')).toMatchObject({ total: 1, total_capped: false });
  });

  describe('synonym groups', () => {
    it('lets policy administrators list, add, change and delete groups, validated and audited', async () => {
      const s = await setup();
      const url = `${s.base}/search-synonyms`;
      expect((await s.admin.get(url)).json()).toEqual({ groups: [] });

      const created = await s.admin.post(url, { terms: [' Fall ', 'FALLS', 'slips  and trips'] });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().terms).toEqual(['fall', 'falls', 'slips and trips']);
      const id = created.json().id as number;

      const refusals: [unknown, string][] = [
        [{ terms: ['alone'] }, 'A group needs at least 2 words or phrases.'],
        [{ terms: ['a', 'a'] }, 'Each word or phrase once per group.'],
        [{ terms: ['ok', 'x'.repeat(61)] }, 'A synonym is at most 60 characters.'],
        [{ terms: ['ok', '  '] }, 'A synonym cannot be empty.'],
        [{ terms: ['ok', 'drop;table'] }, 'Use letters, digits, spaces, hyphens and apostrophes in synonyms.'],
        [{ terms: Array.from({ length: 21 }, (_, i) => `w${i}`) }, 'A group has at most 20 words or phrases.'],
        [{ terms: ['tumble', 'Falls'] }, '"falls" is already in another group; a word can be in one group only.'],
      ];
      for (const [body, message] of refusals) {
        const answer = await s.admin.post(url, body);
        expect(answer.statusCode, JSON.stringify(body)).toBe(400);
        expect(Object.values(answer.json().errors).flat(), JSON.stringify(body)).toContain(message);
      }

      const changed = await s.admin.put(`${url}/${id}`, { terms: ['fall', 'falls', 'tumble'] });
      expect(changed.statusCode, changed.body).toBe(200);
      // The suggestions skip a group that shares a word with one of the project's.
      const suggested = (await s.admin.post(`${url}/suggested`)).json();
      expect(suggested.groups).toHaveLength(SUGGESTED_SYNONYM_GROUPS.length);
      expect(suggested.groups[0].terms).toEqual(['fall', 'falls', 'tumble']);
      const handGroup = suggested.groups.find((g: { terms: string[] }) => g.terms.includes('handwashing'));
      const clash = await s.admin.put(`${url}/${handGroup.id}`, { terms: ['handwashing', 'tumble'] });
      expect(clash.statusCode).toBe(400);

      const outsider = await ctx.signedIn(s.people.outsider);
      expect(
        (
          await outsider.put(`/api/projects/${s.other.id}/policy-management/search-synonyms/${id}`, {
            terms: ['a', 'b'],
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await outsider.delete(`/api/projects/${s.other.id}/policy-management/search-synonyms/${id}`)).statusCode,
      ).toBe(404);
      expect((await s.admin.delete(`${url}/${id}`)).statusCode).toBe(204);
      expect((await s.admin.delete(`${url}/${id}`)).statusCode).toBe(404);

      const audited = await db()
        .select({ action: auditEvents.action, data: auditEvents.data })
        .from(auditEvents)
        .where(and(eq(auditEvents.projectId, s.project.id), eq(auditEvents.subjectType, 'policy_search_synonyms')));
      const actions = audited.map((row) => row.action);
      expect(actions.filter((a) => a === 'policy.search_synonyms_created')).toHaveLength(5);
      expect(audited.find((row) => row.action === 'policy.search_synonyms_updated')?.data).toMatchObject({
        before: ['fall', 'falls', 'slips and trips'],
        added: ['tumble'],
        removed: ['slips and trips'],
      });
      expect(actions).toContain('policy.search_synonyms_deleted');
    });

    it('refuses everyone but policy administrators', async () => {
      const s = await setup();
      const url = `${s.base}/search-synonyms`;
      const author = await ctx.signedIn(s.people.author);
      for (const agent of [s.reader, author]) {
        expect((await agent.get(url)).statusCode).toBe(403);
        expect((await agent.post(url, { terms: ['a', 'b'] })).statusCode).toBe(403);
        expect((await agent.post(`${url}/suggested`)).statusCode).toBe(403);
      }
      const outsider = await ctx.signedIn(s.people.outsider);
      expect((await outsider.get(url)).statusCode).toBe(404);
      expect((await ctx.agent().get(url)).statusCode).toBe(401);
    });
  });

  it('expands words and phrases, and finds the prefix being typed', () => {
    const groups = [
      ['hand hygiene', 'handwashing'],
      ['hand', 'palm'],
    ];
    expect(expandSynonyms('Hand hygiene audit', groups)).toEqual({
      variants: ['palm hygiene audit', 'handwashing audit'],
      added: ['handwashing', 'palm'],
    });
    expect(expandSynonyms('handheld', groups).variants).toEqual([]);
    expect(prefixPart('hand hyg')).toEqual({ head: 'hand', prefix: 'hyg' });
    expect(prefixPart('hand hy')).toBeNull();
    expect(prefixPart('hand ')).toBeNull();
    expect(prefixPart('"hand hyg')).toBeNull();
    expect(prefixPart('-hyg')).toBeNull();
  });
});
