// visibility.js: the one visibility rule (DESIGN decision 13), Playwright's.
// One module of the collector, assembled by browser/script.py (MODULES) into one script.
  // -- the one visibility rule (DESIGN decision 13) ----------------------------------------
  // An element is visible as Playwright's isElementVisible says: checkVisibility() (not
  // display:none, no content-visibility:hidden or closed <details> around it), visibility
  // visible, and a non-empty box; a display:contents element by its children. Two additions
  // for people: opacity 0 on it or an ancestor hides it (a styled checkbox made transparent
  // over its picture excepted), and a file input counts as visible (set_input_files needs no
  // visible input). The page state, find, the replay's element check and every typed check
  // use this one function.
  function visible(el) {
    if (!el || !el.isConnected || el.nodeType !== 1) return false;
    if (el.tagName === 'INPUT' && (el.getAttribute('type') || '').toLowerCase() === 'file') return true;
    const st = getComputedStyle(el);
    if (st.display === 'contents') {
      for (const c of list(el.childNodes)) {
        if (c.nodeType === 1 && visible(c)) return true;
        if (c.nodeType === 3 && textBoxed(c)) return true;
      }
      return false;
    }
    if (!rendersContent(el)) return false;
    if (st.visibility !== 'visible') return false;
    if (!opaque(el) && !styledControl(el)) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

  // Rendered at all: no display:none on it or an ancestor (flat tree), no content-visibility
  // or closed <details> hiding it. Visibility and size are not asked: a child may be visible
  // where its parent is not, and text may overflow an empty box.
  function rendersContent(el) {
    if (getComputedStyle(el).display === 'contents') return boxedAbove(el, rendersContent);
    if (el.checkVisibility) return el.checkVisibility();
    for (let n = el; n && n.nodeType === 1; n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
      const st = getComputedStyle(n);
      if (st.display === 'none' || st.contentVisibility === 'hidden') return false;
      const details = n.parentElement;
      if (details && details.tagName === 'DETAILS' && !details.open && n.tagName !== 'SUMMARY') return false;
    }
    return true;
  }

  // No opacity 0 on el or its ancestors (flat tree).
  function opaque(el) {
    if (getComputedStyle(el).display === 'contents') return boxedAbove(el, opaque);
    if (el.checkVisibility) return el.checkVisibility({ opacityProperty: true });
    for (let n = el; n && n.nodeType === 1; n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
      if (getComputedStyle(n).opacity === '0') return false;
    }
    return true;
  }

  // A box of no size that clips what overflows it shows nothing of its content.
  function clipsAway(el, style) {
    if (!/hidden|clip/.test(style.overflowX) || !/hidden|clip/.test(style.overflowY)) return false;
    const r = el.getBoundingClientRect();
    return r.width === 0 || r.height === 0;
  }

  // A display: contents element has no box for checkVisibility to ask about: ask its parent.
  function boxedAbove(el, test) {
    const up = el.parentElement || hostOf(el);
    return !up || test(up);
  }

  function textBoxed(node) {
    if (!norm(node.nodeValue)) return false;
    const range = node.ownerDocument.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

  // A checkbox or radio made invisible on purpose (opacity 0, clipped) with a visible label
  // or picture in its place: people and Playwright can still use it, so it is listed.
  function styledControl(el) {
    if (el.tagName !== 'INPUT' || !['checkbox', 'radio'].includes((el.type || '').toLowerCase())) return false;
    const label = (el.labels && el.labels[0]) || el.parentElement;
    if (!label) return false;
    const st = getComputedStyle(label);
    return st.visibility === 'visible' && st.opacity !== '0' && label.getBoundingClientRect().width > 0;
  }

