/**
 * The small repositories the probes run on, built in the suite's temporary folder with git
 * (test/repo's helpers): a shop with a dozen Python and JavaScript files (rankings with distinct
 * scores), a big variant whose `--level all --top 100` JSON is larger than a pipe's buffer, and a
 * history repository whose commits fix Jira-style issues (for `--model default` and `dataset build`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitFiles, git } from '../test/repo/git-fixture.js';
import { fixtureRepo, type FixtureCommit } from '../test/repo/fixture-repo.js';
import type { Shared } from './probe.js';

/** The shop's source files. */
export const SHOP_FILES: Record<string, string> = {
  'src/shop/cart.py': [
    'from .money import round_money',
    '',
    'class Cart:',
    '    def __init__(self):',
    '        self.items = []',
    '        self.coupon = None',
    '',
    '    def add_item(self, item, quantity=1):',
    '        self.items.append((item, quantity))',
    '',
    '    def remove_item(self, item):',
    '        self.items = [(i, q) for i, q in self.items if i != item]',
    '',
    '    def apply_coupon(self, coupon):',
    '        """Remember the coupon; the discount is taken in total_price."""',
    '        self.coupon = coupon',
    '',
    '    def total_price(self):',
    '        total = sum(item.price * quantity for item, quantity in self.items)',
    '        if self.coupon:',
    '            total -= self.coupon.discount(total)',
    '        return round_money(total)',
    '',
  ].join('\n'),
  'src/shop/coupon.py': [
    'class Coupon:',
    '    def __init__(self, code, percent):',
    '        self.code = code',
    '        self.percent = percent',
    '',
    '    def discount(self, amount):',
    '        """The discount of a coupon on an amount."""',
    '        return amount * self.percent / 100',
    '',
    '    def is_expired(self, today):',
    '        return today > self.valid_until',
    '',
  ].join('\n'),
  'src/shop/payment.py': [
    'class PaymentGateway:',
    '    def authorize(self, card, amount):',
    '        if amount <= 0:',
    '            raise ValueError("amount must be positive")',
    '        return self.client.post("/authorize", card=card, amount=amount)',
    '',
    'def charge_card(gateway, card, amount):',
    '    """Charge the card the amount of the order."""',
    '    return gateway.authorize(card, amount)',
    '',
    'def refund_payment(gateway, payment_id):',
    '    return gateway.client.post("/refund", payment=payment_id)',
    '',
  ].join('\n'),
  'src/shop/inventory.py': [
    'def reserve_stock(store, sku, quantity):',
    '    """Reserve stock of a product for an order."""',
    '    store[sku] -= quantity',
    '',
    'def release_stock(store, sku, quantity):',
    '    store[sku] += quantity',
    '',
  ].join('\n'),
  'src/shop/shipping.py': [
    'def shipping_cost(weight, country):',
    '    """Cost of shipping a parcel of this weight."""',
    '    return 5 + weight * RATES.get(country, 2)',
    '',
    'def estimate_delivery(country, express=False):',
    '    return 2 if express else DAYS.get(country, 7)',
    '',
  ].join('\n'),
  'src/shop/money.py': [
    'def round_money(value):',
    '    """Round a money value to cents; negative values are an error."""',
    '    if value < 0:',
    '        raise ValueError("negative money value")',
    '    return round(value, 2)',
    '',
    'def parse_amount(text):',
    '    return float(text.replace(",", ""))',
    '',
    'def format_currency(value, currency="EUR"):',
    '    return f"{value:.2f} {currency}"',
    '',
  ].join('\n'),
  'src/app/main.py': [
    'import sys',
    '',
    'def main(argv=None):',
    '    """Entry point of the shop server: main reads the configuration."""',
    '    argv = argv or sys.argv',
    '    return serve(argv[1:])',
    '',
  ].join('\n'),
  'src/web/handlers.js': [
    'export function checkoutHandler(req, res) {',
    '  const cart = loadCart(req.session);',
    '  const amount = cart.totalPrice();',
    '  return chargeCard(req.body.card, amount).then(() => res.send({ ok: true }));',
    '}',
    '',
    'export function refundHandler(req, res) {',
    '  return refundPayment(req.params.id).then(() => res.send({ refunded: true }));',
    '}',
    '',
  ].join('\n'),
  'src/web/validate.js': [
    'export function validateCoupon(code) {',
    '  // a coupon code is eight letters or digits',
    '  return /^[A-Z0-9]{8}$/.test(code);',
    '}',
    '',
    'export function validateAddress(address) {',
    '  return Boolean(address.street && address.city && address.country);',
    '}',
    '',
  ].join('\n'),
  'README.md': '# shop\n\nA tiny shop used by the fault suite.\n',
};

/** An issue on the shop: several functions match with distinct scores. */
export const SHOP_ISSUE = [
  'Coupon discount is applied twice in total_price',
  '',
  'When a customer applies a coupon to the cart, Cart.total_price subtracts the discount twice',
  'and the checkout handler charges the card the wrong amount; round_money then fails on a',
  'negative money value. Expected: the coupon discount is taken once.',
].join('\n');

/** Builds a work tree with `files` committed (one commit) in `dir`. */
export function workTree(dir: string, files: Record<string, string | Buffer | { symlink: string }>, message = 'init'): string {
  commitFiles(dir, files, message);
  return dir;
}

/** The shop repository (one commit), built once per suite run. */
export function shopRepo(shared: Shared): Promise<string> {
  return shared.memo('repo:shop', () => workTree(join(shared.dir('shop'), 'repo'), SHOP_FILES));
}

/** Words every function of the big repository holds (the issue repeats them). */
const BIG_WORDS = 'parse json text objects reader stream buffer decoder encoder payload schema record';
export const BIG_ISSUE = `json parse fails for the reader stream: ${BIG_WORDS}`;

/**
 * 220 files of 3 functions each under a deep folder, every function matching {@link BIG_ISSUE}, so
 * `localize --json --level all --top 100` prints more than 64 KiB (a pipe's buffer) and indexing
 * takes long enough to be killed half-way.
 */
export function bigRepo(shared: Shared): Promise<string> {
  return shared.memo('repo:big', () => {
    const files: Record<string, string> = {};
    const folder = 'src/package_alpha_gamma/subpackage_beta_delta/inner_folder_epsilon/innermost_folder_zeta';
    for (let i = 1; i <= 220; i++) {
      const extra = BIG_WORDS.split(' ').slice(0, 1 + (i % 12)).join(' ');
      files[`${folder}/module_number_${i}.py`] = [
        `def parse_json_${i}(text):`,
        `    """${BIG_WORDS} ${extra}"""`,
        '    return text.split(",")',
        '',
        `class Reader${i}:`,
        '    def read_json_objects_from_stream_buffer(self, stream):',
        `        """${extra} decoder encoder buffer"""`,
        `        return parse_json_${i}(stream.read())`,
        '',
        `    def decode_payload_schema_record_${i}(self, payload):`,
        `        return payload  # ${extra.split(' ').reverse().join(' ')}`,
        '',
      ].join('\n');
    }
    return workTree(join(shared.dir('big'), 'repo'), files);
  });
}

/** A history repository, its issue file and the commit ids of its issues. */
export interface HistoryRepo {
  dir: string;
  /** Jira-JSONL issues SHOP-1 … (dataset build --key SHOP). */
  issuesFile: string;
  /** Full SHA of commit `c<n>` (c0 = the first). */
  sha(id: string): string;
  /** Number of commits (c0 … c<n-1>). */
  commits: number;
}

/** Fixes: the file, the line a statement is put after (inside a function), the issue summary. */
const FIXES: [string, string, string][] = [
  ['src/shop/cart.py', '    def total_price(self):', 'coupon discount applied twice in total price'],
  ['src/shop/payment.py', 'def charge_card(gateway, card, amount):', 'charge card fails for small amounts'],
  ['src/shop/money.py', 'def round_money(value):', 'round money rejects negative values'],
  ['src/shop/shipping.py', 'def shipping_cost(weight, country):', 'shipping cost wrong for heavy parcels'],
  ['src/shop/inventory.py', 'def reserve_stock(store, sku, quantity):', 'reserve stock goes below zero'],
  ['src/web/handlers.js', 'export function checkoutHandler(req, res) {', 'checkout handler charges twice'],
  ['src/shop/coupon.py', '    def is_expired(self, today):', 'expired coupon still gives a discount'],
  ['src/web/validate.js', 'export function validateAddress(address) {', 'validate address accepts empty city'],
];

/** `text` with one statement put after the line `anchor` (indented one level deeper). */
function insertAfter(text: string, anchor: string, i: number, words: string): string {
  const indent = `${/^\s*/.exec(anchor)![0]}    `;
  const stmt = anchor.trimEnd().endsWith('{') ? `${indent}const check${i} = ${i}; // ${words}` : `${indent}check_${i} = ${i}  # ${words}`;
  return text.replace(`${anchor}\n`, `${anchor}\n${stmt}\n`);
}

/**
 * A repository of `commits` commits over the shop files: commit i (i ≥ 1) fixes issue SHOP-i in
 * one function (every third commit is a refactoring without an issue key), one day apart.
 * `variant` changes the file contents, so two variants are different repositories with the same
 * layout and issues.
 */
export function historyRepo(shared: Shared, variant = 0, commits = 40): Promise<HistoryRepo> {
  return shared.memo(`repo:history:${variant}:${commits}`, () => {
    const list: FixtureCommit[] = [];
    const content = new Map(Object.entries(SHOP_FILES).map(([p, t]) => [p, variant === 0 ? t : `${t}\n# variant ${variant}\n`]));
    list.push({ id: 'c0', message: 'init', files: Object.fromEntries(content) });
    const issues: string[] = [];
    for (let i = 1; i < commits; i++) {
      const [path, anchor, summary] = FIXES[(i + variant) % FIXES.length];
      const text = insertAfter(content.get(path)!, anchor, i, summary);
      content.set(path, text);
      const key = `SHOP-${i}`;
      const refactor = i % 3 === 0;
      list.push({ id: `c${i}`, parents: [`c${i - 1}`], message: refactor ? `refactor ${summary.split(' ').slice(0, 2).join(' ')}` : `[${key}] fix ${summary}`, files: { [path]: text } });
      if (!refactor) {
        const day = new Date(Date.UTC(2020, 0, 1 + i - 1, 12)).toUTCString().replace('GMT', '+0000');
        issues.push(JSON.stringify({
          key, summary: `${summary} (${i})`, type: 'Bug', status: 'Closed', resolution: 'Fixed', created: day, resolved: null,
          description_html: `<p>${summary}. Seen in ${path.split('/').pop()} with ${summary.split(' ').reverse().join(' ')}.</p>`,
        }));
      }
    }
    const fx = fixtureRepo(list);
    shared.onRemove(() => fx.remove());
    const issuesFile = join(shared.dir(`history-${variant}`), 'issues.jsonl');
    writeFileSync(issuesFile, `${issues.join('\n')}\n`);
    return { dir: fx.dir, issuesFile, sha: fx.sha, commits };
  });
}

/** `git clone` of a local repository into `dest` (no hard links: a clone a user would make). */
export function cloneRepo(src: string, dest: string): string {
  git(process.cwd(), 'clone', '-q', '--no-hardlinks', src, dest);
  return dest;
}
