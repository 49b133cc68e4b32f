// page.js: the page as a whole: waiting for it to settle, numbered boxes over it.
// One module of the collector, assembled by browser/script.py (MODULES) into one script.
  function settle(quiet, max) {
    return new Promise((resolve) => {
      let timer = null;
      const ours = (m) => m.type === 'attributes' && m.attributeName.startsWith('data-webtask-');
      const obs = new MutationObserver((muts) => {
        if (muts.every(ours)) return;
        clearTimeout(timer);
        timer = setTimeout(done, quiet);
      });
      const cap = setTimeout(() => { obs.disconnect(); clearTimeout(timer); resolve(false); }, max);
      function done() { obs.disconnect(); clearTimeout(cap); resolve(true); }
      obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      timer = setTimeout(done, quiet);
    });
  }

  function boxes(show) {
    for (const layer of state.boxLayers || []) layer.remove();
    state.boxLayers = [];
    const stray = document.getElementById('__webtask_boxes');
    if (stray) stray.remove();
    if (!show) return 0;
    // each box in its element's own document: a same-origin frame's over the frame
    const layers = new Map();
    let n = 0;
    for (const [id, el] of state.byId) {
      const doc = el.ownerDocument;
      const view = doc.defaultView;
      if (!el.isConnected || !view) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 0 || r.bottom < 0 || r.top > view.innerHeight) continue;
      let layer = layers.get(doc);
      if (!layer) {
        layer = doc.createElement('div');
        layer.id = '__webtask_boxes';
        layer.style.cssText = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647';
        layers.set(doc, layer);
      }
      const b = doc.createElement('div');
      b.style.cssText = `position:fixed;left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${r.height}px;outline:2px solid #e0245e;`;
      const tagEl = doc.createElement('span');
      tagEl.textContent = id;
      tagEl.style.cssText = 'position:absolute;left:0;top:-14px;font:11px monospace;background:#e0245e;color:#fff;padding:0 2px';
      b.appendChild(tagEl);
      layer.appendChild(b);
      n++;
    }
    for (const [doc, layer] of layers) {
      doc.documentElement.appendChild(layer);
      state.boxLayers.push(layer);
    }
    return n;
  }

