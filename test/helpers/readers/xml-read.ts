import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import type { FrameRate } from '../../../src-shared/timecode';
import type { ElementRule } from './fcpxml-dtd-rules';

/**
 * XML read back for the export tests, by parsers that are not the writers: xmllint for
 * well-formedness, Python's ElementTree for the tree, and the FCPXML DTD's rules.
 */
/** An XML tree as Python's ElementTree reads it: an independent parser. */
export interface XNode {
  tag: string;
  attrs: Record<string, string>;
  text: string;
  children: XNode[];
}
export function parseXml(file: string): XNode {
  execFileSync('xmllint', ['--noout', file]); // well-formed, or this throws
  const py = `
import json, sys, xml.etree.ElementTree as ET
def conv(e): return {"tag": e.tag, "attrs": dict(e.attrib), "text": (e.text or "").strip(), "children": [conv(c) for c in e]}
print(json.dumps(conv(ET.parse(sys.argv[1]).getroot())))`;
  return JSON.parse(execFileSync('python3', ['-c', py, file]).toString()) as XNode;
}
export const kids = (n: XNode, tag: string) => n.children.filter((c) => c.tag === tag);
export const one = (n: XNode, tag: string) => {
  const k = kids(n, tag);
  expect(k, `<${n.tag}> has one <${tag}>`).toHaveLength(1);
  return k[0]!;
};
export const at = (n: XNode, p: string): XNode => p.split('/').reduce((x, t) => one(x, t), n);

/** "1001/24000s" or "10s" as an exact fraction [num, den] (BigInt). */
function rational(t: string): [bigint, bigint] {
  const m = /^(\d+)(?:\/(\d+))?s$/.exec(t);
  expect(m, `time "${t}" is rational seconds`).not.toBeNull();
  return [BigInt(m![1]!), BigInt(m![2] ?? '1')];
}
/** frames at rate as seconds, compared exactly with a rational time attribute. */
export function expectTime(attr: string | undefined, frames: number, rate: FrameRate) {
  expect(attr).toBeDefined();
  const [n, d] = rational(attr!);
  expect(n * BigInt(rate.num), `${attr} is frame ${frames}`).toBe(BigInt(frames) * BigInt(rate.den) * d);
}

/** Element order and attributes against the DTD's rules (test/helpers/readers/fcpxml-dtd-rules.ts). */
export function checkAgainstDtd(n: XNode, rules: Record<string, ElementRule>): void {
  const rule = rules[n.tag];
  if (!rule) return; // elements this writer never emits are not described
  for (const a of rule.required) expect(n.attrs, `<${n.tag}> has required ${a}`).toHaveProperty(a);
  for (const a of Object.keys(n.attrs)) expect(rule.allowed, `<${n.tag}> may carry ${a}`).toContain(a);
  for (const [a, values] of Object.entries(rule.enums ?? {})) if (n.attrs[a] !== undefined) expect(values).toContain(n.attrs[a]);
  // Children must follow the groups in order; each group may repeat within its bounds.
  let g = 0;
  const counts = new Array<number>(rule.children.length).fill(0);
  for (const child of n.children) {
    while (g < rule.children.length && !rule.children[g]!.names.includes(child.tag)) g++;
    expect(g, `<${child.tag}> is allowed in <${n.tag}> at this position`).toBeLessThan(rule.children.length);
    counts[g]!++;
    expect(counts[g]!, `<${child.tag}> count in <${n.tag}>`).toBeLessThanOrEqual(rule.children[g]!.max);
    checkAgainstDtd(child, rules);
  }
  rule.children.forEach((grp, i) => expect(counts[i]!, `<${n.tag}> has at least ${grp.min} of ${grp.names.join('|')}`).toBeGreaterThanOrEqual(grp.min));
  if (rule.empty) expect(n.children, `<${n.tag}> is EMPTY`).toHaveLength(0);
}
