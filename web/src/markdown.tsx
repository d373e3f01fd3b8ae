// A tiny Markdown renderer for the rule docs (docs/rules/*.md): headings, paragraphs, fenced code, lists, pipe
// tables, inline code, bold, emphasis and links. It builds Preact elements (never innerHTML), so text from a
// document cannot inject markup; links keep only http(s), in-page and relative targets, and rule docs (HBxxx.md)
// open in the dashboard's own rule view.
import type { ComponentChildren } from 'preact';

function href(target: string): string | null {
  const rule = /^(?:\.\/)?(HB\d{3}|README|effort-model)\.md(#.*)?$/.exec(target);
  if (rule) return `#/rule/${rule[1]}`;
  if (/^https?:\/\//i.test(target) || target.startsWith('#')) return target;
  if (/^[\w./-]+$/.test(target) && !target.includes('..')) return null;  // a repository path: shown as text
  return null;
}

export function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let m; (m = pattern.exec(text));) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(<code>{m[1]}</code>);
    else if (m[2] !== undefined) out.push(<strong>{inline(m[2])}</strong>);
    else if (m[3] !== undefined) out.push(<em>{inline(m[3])}</em>);
    else {
      const target = href(m[5]);
      out.push(target ? <a href={target} rel="noopener noreferrer">{inline(m[4])}</a> : <span>{inline(m[4])} (<code>{m[5]}</code>)</span>);
    }
    last = pattern.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const cells = (row: string) => row.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());

// Block structure: one pass over the lines; a block ends at a blank line or where another kind starts.
export function Markdown({ source }: { source: string }) {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: ComponentChildren[] = [];
  const starts = (l: string) => /^(#{1,6}\s|```|\s*[-*]\s|\s*\d+\.\s|\|)/.test(l);
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    if (line.trim() === '') { ++i; continue; }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const Tag = `h${Math.min(heading[1].length + 1, 6)}` as 'h2';
      blocks.push(<Tag>{inline(heading[2])}</Tag>);
      ++i;
    } else if (line.startsWith('```')) {
      const language = line.slice(3).trim();
      const code: string[] = [];
      for (++i; i < lines.length && !lines[i].startsWith('```'); ++i) code.push(lines[i]);
      ++i;
      blocks.push(<pre class="doc-code"><code data-language={language || undefined}>{code.join('\n')}</code></pre>);
    } else if (/^\s*([-*]|\d+\.)\s/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items: string[] = [];
      for (; i < lines.length && lines[i].trim() !== ''; ++i) {
        const item = /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(lines[i]);
        if (item) items.push(item[1]);
        else if (items.length && !starts(lines[i])) items[items.length - 1] += ' ' + lines[i].trim();
        else break;
      }
      const list = items.map((t) => <li>{inline(t)}</li>);
      blocks.push(ordered ? <ol>{list}</ol> : <ul>{list}</ul>);
    } else if (line.startsWith('|')) {
      const rows: string[][] = [];
      for (; i < lines.length && lines[i].startsWith('|'); ++i) {
        if (!/^\|[\s|:-]+\|?$/.test(lines[i].trim())) rows.push(cells(lines[i]));
      }
      const [head, ...body] = rows;
      if (!head) continue;
      blocks.push(<table class="doc-table"><thead><tr>{head.map((c) => <th>{inline(c)}</th>)}</tr></thead>
        <tbody>{body.map((r) => <tr>{r.map((c) => <td>{inline(c)}</td>)}</tr>)}</tbody></table>);
    } else {
      const text: string[] = [];
      for (; i < lines.length && lines[i].trim() !== '' && (text.length === 0 || !starts(lines[i])); ++i) text.push(lines[i].trim());
      blocks.push(<p>{inline(text.join(' '))}</p>);
    }
  }
  return <div class="markdown" data-testid="markdown">{blocks}</div>;
}
