#!/usr/bin/env node
// Marks up a folder of eCFR sections in Markdown (one file per section, as the public git mirrors of the eCFR render
// them: "##### § 482.1 Basis and scope. #####", paragraphs, *italic* headings and designators, a bracketed source
// note) as eCFR XML (DIV5/DIV6/DIV7/DIV8, HEAD, P, I, CITA), the format the importer reads. Used once to pin the
// shipped edition's fixture where ecfr.gov could not be reached (docs/standards.md "Sources").
//
//   node scripts/ecfr-markdown-to-xml.mjs <layout.json> <markdown-folder> > part.xml
//
// layout.json: { "title": 42, "part": "482", "heading": "PART 482—...", "amended": "Jan. 1, 2025",
//   "subparts": [{ "letter": "A", "heading": "Subpart A—General Provisions", "sections": ["482.1", ...],
//   "groups": [{ "heading": "...", "sections": [...] }] }] }
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [layoutPath, folder] = process.argv.slice(2);
if (!layoutPath || !folder) {
  console.error('usage: ecfr-markdown-to-xml.mjs <layout.json> <markdown-folder>');
  process.exit(2);
}
const layout = JSON.parse(readFileSync(layoutPath, 'utf8'));
const escapeXml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const inline = (text) => escapeXml(text).replace(/\*([^*]+)\*/g, '<I>$1</I>');

function section(number) {
  const markdown = readFileSync(join(folder, `${number}.md`), 'utf8');
  const blocks = markdown
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean);
  const head = /^#####\s*(.*?)\s*#####$/.exec(blocks[0] ?? '');
  if (!head) throw new Error(`${number}: no heading line`);
  const lines = [`<DIV8 N="${number}" TYPE="SECTION">`, `<HEAD>${escapeXml(head[1])}</HEAD>`];
  for (const block of blocks.slice(1)) {
    if (/^Link to an amendment published at /.test(block)) throw new Error(`${number}: pending amendment: ${block}`);
    if (/^\[.*\]$/s.test(block) && /FR/.test(block)) lines.push(`<CITA TYPE="N">${escapeXml(block)}</CITA>`);
    else lines.push(`<P>${inline(block.replace(/\s*\n\s*/g, ' '))}</P>`);
  }
  lines.push('</DIV8>');
  return lines.join('\n');
}

const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<ECFR>', `<AMDDATE>${escapeXml(layout.amended)}</AMDDATE>`];
out.push(`<DIV1 N="${layout.title}" TYPE="TITLE">`);
out.push(`<DIV5 N="${layout.part}" TYPE="PART">`, `<HEAD>${escapeXml(layout.heading)}</HEAD>`);
for (const subpart of layout.subparts) {
  out.push(`<DIV6 N="${subpart.letter}" TYPE="SUBPART">`, `<HEAD>${escapeXml(subpart.heading)}</HEAD>`);
  for (const number of subpart.sections ?? []) out.push(section(number));
  for (const group of subpart.groups ?? []) {
    out.push('<DIV7 TYPE="SUBJGRP">', `<HEAD>${escapeXml(group.heading)}</HEAD>`);
    for (const number of group.sections) out.push(section(number));
    out.push('</DIV7>');
  }
  out.push('</DIV6>');
}
out.push('</DIV5>', '</DIV1>', '</ECFR>', '');
process.stdout.write(out.join('\n'));
