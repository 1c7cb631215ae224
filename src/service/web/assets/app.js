// The issueloc web page: plain DOM, no framework, nothing loaded from elsewhere. Every text from
// the issue, the repository or the server goes in as a text node (never as HTML).
const $ = (id) => document.getElementById(id);
const MAX_FILE_BYTES = 1 << 20;
const forges = new Map();

/** An element with attributes and children (strings become text nodes). */
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) e.setAttribute(k, v);
  for (const c of children) if (c !== undefined && c !== null) e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return e;
}

function status(text, error = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', error);
}

/** JSON from the service; a 401 shows the token field. */
async function api(path, body) {
  const headers = { accept: 'application/json' };
  const token = $('token').value || sessionStorage.getItem('issueloc-token');
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }));
  if (res.status === 401) $('token-label').hidden = false;
  if (!res.ok) throw new Error(answer.error ?? `${res.status} ${res.statusText}`);
  if (token) sessionStorage.setItem('issueloc-token', token);
  return answer;
}

async function loadRepos() {
  try {
    const { repositories } = await api('/v1/repos');
    const select = $('repo');
    select.replaceChildren(...repositories.map((r) => el('option', { value: r.name }, r.name)));
    for (const r of repositories) if (r.forge) forges.set(r.name, r.forge);
    status(repositories.length ? '' : 'no repository configured');
    if (fromFragment()) $('query').requestSubmit();
  } catch (e) {
    status(`repositories: ${e.message}`, true);
  }
}

/** The URL of lines of a file on the repository's forge at a commit, or undefined. */
function forgeUrl(forge, commit, path, start, end) {
  if (!forge || !/^https:\/\//.test(forge.url)) return undefined;
  const file = path.split('/').map(encodeURIComponent).join('/');
  const blob = forge.kind === 'gitlab' ? `${forge.url}/-/blob/${commit}/${file}` : `${forge.url}/blob/${commit}/${file}`;
  if (start === undefined) return blob;
  return forge.kind === 'gitlab' ? `${blob}#L${start}-${end}` : `${blob}#L${start}-L${end}`;
}

/** A dropped or chosen file, read by the server as `localize --issue-file` reads it. */
async function readIssueFile(file) {
  if (file.size > MAX_FILE_BYTES) return status(`${file.name}: over 1 MiB`, true);
  try {
    const issue = await api('/web/issue', { raw: await file.text(), name: file.name });
    $('issue').value = issue.text;
    status(issue.warning ?? `${file.name}: read as ${issue.format === 'text' ? 'plain text' : `a ${issue.format === 'github' ? 'GitHub' : 'Jira'} issue`}`, issue.warning !== undefined);
  } catch (e) {
    status(e.message, true);
  }
}

const LEVELS = [['files', 'file'], ['modules', 'module'], ['functions', 'function']];

function itemView(item, level) {
  const li = el('li', { 'data-id': item.id });
  li.append(el('div', { class: 'item-head' }, el('span', { class: 'id' }, item.id), el('span', { class: 'score' }, item.score.toFixed(3))));
  if (item.matchedTerms?.length) {
    li.append(el('div', { class: 'terms' }, 'matched: ', ...item.matchedTerms.map((t) => el('span', { class: 'term' }, t))));
  }
  (item.signals ?? []).forEach((s, i) => {
    const what = item.evidence?.[i];
    li.append(el('div', { class: 'evidence' }, el('span', { class: 'signal' }, s), what ? ': ' : '', what ? el('code', {}, what) : undefined));
  });
  li.dataset.level = level;
  return li;
}

/** `<pre>` of a preview: line numbers, and the matched words in `<mark>`. */
function previewView(p) {
  const pre = el('pre', { class: 'preview' });
  const marksOf = new Map();
  for (const [line, from, to, terms] of p.marks ?? []) {
    if (!marksOf.has(line)) marksOf.set(line, []);
    marksOf.get(line).push([from, to, terms]);
  }
  p.lines.forEach((text, i) => {
    pre.append(el('span', { class: 'ln' }, String(p.startLine + i)));
    let at = 0;
    for (const [from, to, terms] of marksOf.get(i) ?? []) {
      pre.append(text.slice(at, from), el('mark', { title: terms.join(', ') }, text.slice(from, to)));
      at = to;
    }
    pre.append(`${text.slice(at)}\n`);
  });
  if (p.more) pre.append(el('span', { class: 'muted' }, `… ${p.more} more lines\n`));
  return pre;
}

function signalsView(signals) {
  const dl = $('signal-list');
  const rows = [];
  for (const [name, values] of Object.entries(signals ?? {})) {
    if (!Array.isArray(values) || values.length === 0) continue;
    const shown = values.slice(0, 30).map((v) => (typeof v === 'string' ? v : String(v.raw ?? JSON.stringify(v))));
    rows.push(el('dt', {}, name), el('dd', {}, shown.join(', ') + (values.length > 30 ? ` … (${values.length})` : '')));
  }
  dl.replaceChildren(...rows);
  $('signals').hidden = rows.length === 0;
}

async function addPreviews(result, repository) {
  const items = [];
  for (const [key] of LEVELS) for (const it of result[key] ?? []) items.push(key === 'functions' ? { id: it.id, terms: (it.matchedTerms ?? []).slice(0, 64), lines: true } : { id: it.id });
  if (items.length === 0) return;
  const { previews } = await api('/web/preview', { repository, commit: result.commit, items });
  const byId = new Map(previews.map((p) => [p.id, p]));
  const forge = forges.get(repository);
  for (const li of document.querySelectorAll('#results li')) {
    const p = byId.get(li.dataset.id);
    if (!p) continue;
    const url = forgeUrl(forge, result.commit, p.path, p.startLine, p.endLine);
    if (url) li.querySelector('.item-head').append(el('a', { class: 'forge', href: url, target: '_blank', rel: 'noopener noreferrer' }, forge.kind === 'gitlab' ? 'GitLab' : 'GitHub'));
    if (li.dataset.level === 'functions' && p.lines) li.append(previewView(p));
  }
}

/** Hides and empties the rankings and signals of the last answer (a new query, or an error). */
function clearResults() {
  $('results').hidden = true;
  for (const [key] of LEVELS) $(key).replaceChildren();
  signalsView(undefined);
}

/** The query in the URL's fragment (repository, revision, level, top, issue), so a ranking can be shared. */
function toFragment(q) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') params.set(k, String(v));
  history.replaceState(null, '', `#${params.toString()}`);
}

/** The fields of a link's fragment, as `toFragment` writes them. */
const FRAGMENT_FIELDS = ['repo', 'rev', 'level', 'top', 'issue'];

/**
 * Fills the form from the URL's fragment; true when it holds an issue (the page then runs it).
 * A repository this server does not serve, or a field it does not know (`repository=` for `repo=`),
 * is an error: the link is not run on another repository or with a field dropped.
 */
function fromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const unknown = [...new Set(params.keys())].filter((k) => !FRAGMENT_FIELDS.includes(k));
  if (unknown.length > 0) {
    status(`the link's field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not known (known: ${FRAGMENT_FIELDS.join(', ')})`, true);
    document.body.dataset.state = 'error';
    return false;
  }
  const repo = params.get('repo');
  if (repo) {
    const served = [...$('repo').options].map((o) => o.value);
    if (!served.includes(repo)) {
      status(`repository '${repo}' is not served here (served: ${served.join(', ') || 'none'})`, true);
      document.body.dataset.state = 'error';
      return false;
    }
    $('repo').value = repo;
  }
  if (params.has('rev')) $('rev').value = params.get('rev');
  if (['all', 'file', 'module', 'function'].includes(params.get('level'))) $('level').value = params.get('level');
  if (/^\d{1,3}$/.test(params.get('top') ?? '')) $('top').value = params.get('top');
  if (!params.get('issue')) return false;
  $('issue').value = params.get('issue');
  return true;
}

async function submit(event) {
  event.preventDefault();
  const repository = $('repo').value;
  const issue = $('issue').value;
  if (!repository) return status('pick a repository', true);
  if (!/[\p{L}\p{N}]/u.test(issue)) return status('paste an issue first', true);
  $('submit').disabled = true;
  clearResults();
  status('ranking…');
  try {
    const rev = $('rev').value.trim() || undefined;
    const query = { repository, rev, issue, level: $('level').value, top: Number($('top').value) || 10 };
    toFragment({ repo: repository, rev, level: query.level, top: query.top, issue });
    const result = await api('/v1/localize', { ...query, explain: true });
    let shown = 0;
    let ranked = 0;
    for (const [key, one] of LEVELS) {
      const list = result[key];
      $(`${key}-level`).hidden = list === undefined;
      if (list) shown++;
      ranked += list?.length ?? 0;
      $(key).replaceChildren(...(list ?? []).map((it) => itemView(it, key)));
      $(`${key}-none`).textContent = `no ${one} matched`;
      $(`${key}-none`).hidden = list === undefined || list.length > 0;
    }
    $('results').classList.toggle('one', shown === 1);
    $('results').hidden = false;
    $('score-note').hidden = !result.stages.includes('model') || ranked === 0;
    signalsView(result.issue);
    // index.built: this very query built the index (later queries find it loaded)
    const took = `${result.queryMillis} ms${result.index.built ? `, index built in ${result.index.millis} ms` : ''}`;
    status(ranked > 0 ? `${result.repo} at ${result.commit.slice(0, 12)}: ${took}` : `nothing matched: no word of the issue occurs in ${result.repo} at ${result.commit.slice(0, 12)} (${took})`);
    await addPreviews(result, repository).catch((e) => status(`previews: ${e.message}`, true));
    document.body.dataset.state = 'done';
  } catch (e) {
    clearResults();
    status(e.message, true);
    document.body.dataset.state = 'error';
  } finally {
    $('submit').disabled = false;
  }
}

const area = $('issue');
area.addEventListener('dragover', (e) => { e.preventDefault(); area.classList.add('dragging'); });
area.addEventListener('dragleave', () => area.classList.remove('dragging'));
area.addEventListener('drop', (e) => {
  e.preventDefault();
  area.classList.remove('dragging');
  const file = e.dataTransfer?.files?.[0];
  if (file) void readIssueFile(file);
});
$('file').addEventListener('change', (e) => { const f = e.target.files?.[0]; if (f) void readIssueFile(f); });
$('query').addEventListener('submit', (e) => void submit(e));
$('token').addEventListener('change', () => void loadRepos());
void loadRepos();
