// frames.js: frames and shadow roots: where an element is, every element of a document.
// One module of the collector, assembled by browser/script.py (MODULES) into one script.
  function frameChain(el) {
    const chain = [];
    let win = el.ownerDocument.defaultView;
    while (win && win !== w && win.frameElement) {
      chain.unshift(cssPath(win.frameElement));
      win = win.parent;
    }
    return chain;
  }

  function hostOf(el) {
    const root = el.getRootNode && el.getRootNode();
    return root && root.host ? root.host : null;
  }

  // The iframe chain (frame ids of the last reading) from this document to el, or null when
  // an iframe on the way has none.
  function framesOf(el) {
    const chain = [];
    let win = el.ownerDocument.defaultView;
    while (win && win !== w && win.frameElement) {
      const fid = win.frameElement.getAttribute(FRAME_ATTR);
      if (!fid) return null;
      chain.unshift(fid);
      win = win.parent;
    }
    return chain;
  }

  // Every element of the document, open shadow roots and same-origin iframes included.
  function deepAllFrames(doc) {
    const out = [];
    for (const el of deepAll(doc)) {
      out.push(el);
      if (el.tagName === 'IFRAME') {
        let inner = null;
        try { inner = el.contentDocument; } catch (e) { inner = null; }
        if (inner && inner.documentElement) out.push(...deepAllFrames(inner));
      }
    }
    return out;
  }

  // Every element of the document, open shadow roots included (iframes are not entered).
  function deepAll(root) {
    const out = [];
    const walk = (node) => {
      for (const el of list(node.querySelectorAll('*'))) {
        out.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(root);
    return out;
  }

  function deepFind(sel) {
    if (!sel) return null;
    const direct = document.querySelector(sel);
    if (direct) return direct;
    return deepAll(document).find((el) => el.matches(sel)) || null;
  }

