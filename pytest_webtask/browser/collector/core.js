// The in-page half of LLMBrowser. One page.evaluate(script, {op, ...}) per call.
// core.js: the shared constants, the per-document state and the text helpers; the other
// modules of the collector/ folder each hold one concern, and browser/script.py puts them
// together (MODULES) into one script that makes the collector's function once (the
// declarations of every module run once per document where it is installed) and returns
// ``call`` (ops.js), run once per op.
// Every op sees the page through one visibility rule, Playwright's (``visible``).
// op "collect": page state text + element ids, in one pass over the DOM (open shadow roots
//               and same-origin iframes included). An iframe of another origin cannot be
//               entered from here: it gets a frame id and a line "@frame:<id>" where its
//               content goes, and is listed in ``away`` for the caller to read in its own
//               context (``counters``, ``frameStart``: where that reading's ids go on).
// op "find":     elements matching a text and/or a role, as lines: those of the last collect,
//               and elements whose own text matches (they get a text-N id, kept while visible).
// op "mark":     an id for the one visible element whose whole text is the given text.
// op "reveal":   for texts only hidden elements hold, the id of the control that shows each.
// op "text":     the rendered text of the page, or of the element at a CSS selector
//               (renderedText: the page state's own merge, for text checks).
// op "describe": the fingerprint of one element id from the last collect.
// op "state":    which of the given ids are still attached, and the snapshot number.
// op "settle":   resolve once the DOM has been quiet for `quiet` ms (at most `max` ms).
// op "boxes":    draw (or remove) numbered boxes over the elements, for screenshots.
// op "resolve":  a replay's fingerprint cascade (in this frame): the element it decides on gets
//                a token to act on, else why none did.
// op "target":   the element the cascade decides on, or null (the selector engine, engine.py).
// op "check":    evaluate one typed check (text, hidden, count, each, nth, order, state, value) on
//                the element and container found before (by id, or by a resolve token);
//                ``vacuous``: an absence on a page that shows nothing holds (the page before
//                a step), else it does not.
// op "checks":   evaluate typed checks, each finding its element and container by their
//                fingerprints in the same call.
// op "freeze":   the page as static HTML (form state, shadow roots, iframes, CSSOM kept), to
//                check it again later.
// op "bind":     an extraction binding found again (its CSS, else its fingerprint's candidates),
//                described when asked (recording): {sel, via, count[, fp]} or {sel: null, tried}.
// op "details":  an extraction's details panel and fields, each found as a binding, read.
// op "ready":    an extraction's control: "ready" (enabled), "gone" (hidden or detached) or false.
// op "items":    an extraction's list: how many items, and their keys.
// op "probe":    the extraction planner's looks at the page (``probe``: outline, seen, appeared,
//                inspect, pagination, classes, height).
// Every op finds elements with the same parts: ``visible`` (one visibility rule), ``roleOf``
// (one implicit-role table), ``testId`` (one list of test-id attributes, ``TEST_IDS``) and a
// resolver (``findTarget`` for a do/check step's fingerprint, ``bindResolve`` for an
// extraction binding's). No other script of the package finds elements (tests/test_layout.py).
  let args = {};  // the arguments of the call under way (ops.js ``call``)
  const ID_ATTR = 'data-webtask-id';
  const FRAME_ATTR = 'data-webtask-frame';
  const SECRET_ATTR = 'data-webtask-secret';  // a field a secret was typed into
  const w = window;
  const state = w.__webtask || (w.__webtask = { els: [], frames: [], byId: new Map(), snap: 0 });
  // Elements find gave an id to (text-N), which keep it in later readings while visible.
  state.found = state.found || new Map();
  state.texts = state.texts || 0;

  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link',
    'title', 'base', 'path', 'defs', 'br', 'wbr']);
  const INTERACTIVE_TAGS = new Set(['a', 'button', 'input', 'select', 'textarea', 'summary',
    'label']);
  const INTERACTIVE_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'switch', 'textbox', 'combobox', 'searchbox',
    'slider', 'spinbutton', 'treeitem', 'gridcell']);
  // Structural tags kept in the tree even without attributes; other wrappers are collapsed.
  const KEEP = new Set(['form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'li',
    'table', 'tr', 'td', 'th', 'nav', 'main', 'header', 'footer', 'section', 'article',
    'aside', 'dialog', 'img', 'fieldset', 'legend', 'iframe', 'dl', 'dt', 'dd']);
  // The one implicit-role table (ARIA's, for the tags a fingerprint meets).
  const IMPLICIT_ROLE = { a: 'link', button: 'button', select: 'combobox', textarea: 'textbox',
    summary: 'button', h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading',
    h5: 'heading', h6: 'heading', li: 'listitem', ul: 'list', ol: 'list', img: 'img',
    dialog: 'dialog', form: 'form', nav: 'navigation', main: 'main', aside: 'complementary',
    article: 'article', table: 'table', tr: 'row', td: 'cell', option: 'option' };
  // The one list of test-id attributes, in the order they are read.
  const TEST_IDS = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];
  const INPUT_ROLE = { checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button',
    reset: 'button', image: 'button', range: 'slider', number: 'spinbutton', search: 'searchbox',
    email: 'textbox', tel: 'textbox', text: 'textbox', url: 'textbox', password: null,
    file: null, hidden: null };

  // Secrets ([value, "{name}"] pairs, longest first) are masked before anything is cut to
  // size, so no part of one survives in a clipped value or a truncated page.
  let SECRETS = [];  // (set by each call, from its arguments)
  const hide = (s) => { for (const [v, p] of SECRETS) s = s.split(v).join(p); return s; };
  const norm = (s) => hide(s || '').replace(/\s+/g, ' ').trim();
  // A node list as an array, by index: a polyfilled DOM may return lists that are not
  // iterable (or nothing at all).
  const list = (nl) => { const out = []; for (let i = 0; nl && i < nl.length; i++) out.push(nl[i]); return out; };
  const clip = (s, n) => { s = hide(s); return s.length > n ? s.slice(0, n - 1) + '…' : s; };
  const q = (s) => JSON.stringify(s);

