// freeze.js: the page as static HTML, to check it again later.
// One module of the collector, assembled by browser/script.py (MODULES) into one script.
  // The page as static HTML, so a check can be evaluated later on the page as it was: "did
  // this check hold before the step?" Kept: form state (as attributes), open shadow roots
  // (declarative shadow DOM), same-origin iframes (srcdoc, their state frozen the same way),
  // stylesheets as the CSSOM has them now (rules a script inserted, constructed sheets a
  // document or shadow root adopted), custom elements as defined (empty definitions, so
  // :defined styles apply), open popovers and modal dialogs. Left out: scripts, inline
  // handlers, our own attributes. An iframe of another origin, which cannot be read from
  // here, gets data-webtask-freeze="<tag><n>" on the page and
  // srcdoc="webtask-frozen-frame-<tag><n>" in the copy: the caller freezes that frame in
  // its own context (another tag) and puts it there.
  let frozenFrames = 0;
  const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link',
    'meta', 'source', 'track', 'wbr']);
  const OURS = /^(?:data-webtask-(?:id|frame|target|scope|freeze)|on.*)$/i;
  function freeze(doc) {
    const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const escAttr = (v) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    const names = new Set();
    const rules = (sheet) => {
      try { return list(sheet.cssRules).map((r) => r.cssText).join('\n'); } catch (e) { return null; }
    };
    const adopted = (root) => list(root.adoptedStyleSheets || [])
      .map((sheet) => '<style>' + (rules(sheet) || '') + '</style>').join('');
    const children = (node) => list(node.childNodes).map(ser).join('');
    function ser(node) {
      if (node.nodeType === 3) return esc(node.nodeValue);
      if (node.nodeType !== 1) return '';
      const el = node;
      const tag = el.localName;
      if (tag === 'script' || tag === 'noscript') return '';
      if (tag.includes('-')) names.add(tag);
      let attrs = '';
      const set = new Map();
      for (const a of list(el.attributes)) if (!OURS.test(a.name)) set.set(a.name, a.value);
      if (tag === 'input') {
        const type = (el.type || '').toLowerCase();
        if (type === 'checkbox' || type === 'radio') { if (el.checked) set.set('checked', ''); else set.delete('checked'); }
        else if (type !== 'file') set.set('value', el.value);
      } else if (tag === 'option') {
        if (el.selected) set.set('selected', ''); else set.delete('selected');
      } else if (tag === 'iframe') {
        set.delete('src');
        let inner = null;
        try { inner = el.contentDocument; } catch (e) { inner = null; }
        if (inner && inner.documentElement) set.set('srcdoc', freeze(inner));
        else if (!inner) {
          const n = (args.tag || '') + frozenFrames++;
          el.setAttribute('data-webtask-freeze', n);
          set.set('srcdoc', 'webtask-frozen-frame-' + n);
        } else set.delete('srcdoc');
      }
      let reopen = false;
      try { reopen = el.matches(':popover-open'); } catch (e) { reopen = false; }
      if (tag === 'dialog' && el.open) {
        try { reopen = el.matches(':modal'); } catch (e) { reopen = false; }
        if (reopen) set.delete('open');
      }
      if (reopen) set.set('data-webtask-reopen', '');
      for (const [k, v] of set) attrs += ' ' + k + (v === '' ? '' : '="' + escAttr(v) + '"');
      if (VOID.has(tag)) return '<' + tag + attrs + '>';
      let inside;
      if (tag === 'style') inside = el.sheet ? (rules(el.sheet) ?? el.textContent) : el.textContent;
      else if (tag === 'textarea') inside = esc(el.value);
      else if (tag === 'template') inside = el.innerHTML;
      else {
        inside = '';
        if (el.shadowRoot) {
          inside += '<template shadowrootmode="open">' + adopted(el.shadowRoot) +
            children(el.shadowRoot) + '</template>';
        }
        inside += children(el);
        if (tag === 'head') inside = '\n' + inside + adopted(el.ownerDocument);
      }
      return '<' + tag + attrs + '>' + inside + '</' + tag + '>';
    }
    const body = ser(doc.documentElement);
    // run in the copy only: define the custom elements the page had, reopen what was open
    const base = /^(https?|file):/.test(doc.location.href) ? '<base href="' + escAttr(doc.location.href) + '">' : '';
    const boot = base + '<script>' +
      JSON.stringify([...names]) + '.forEach((n) => { try { customElements.get(n) || customElements.define(n, class extends HTMLElement {}); } catch (e) {} });' +
      'addEventListener("DOMContentLoaded", () => document.querySelectorAll("[data-webtask-reopen]").forEach((el) => {' +
      ' try { el.tagName === "DIALOG" ? el.showModal() : el.showPopover(); } catch (e) {} }));</script>';
    const at = body.indexOf('<head');
    const headEnd = at < 0 ? -1 : body.indexOf('>', at) + 1;
    return '<!DOCTYPE html>' + (headEnd > 0 ? body.slice(0, headEnd) + boot + body.slice(headEnd)
      : '<head>' + boot + '</head>' + body);
  }

