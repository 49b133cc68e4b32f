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
    const old = document.getElementById('__webtask_boxes');
    if (old) old.remove();
    if (!show) return 0;
    const layer = document.createElement('div');
    layer.id = '__webtask_boxes';
    layer.style.cssText = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647';
    let n = 0;
    for (const [id, el] of state.byId) {
      if (el.ownerDocument !== document) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 0 || r.bottom < 0 || r.top > innerHeight) continue;
      const b = document.createElement('div');
      b.style.cssText = `position:fixed;left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${r.height}px;outline:2px solid #e0245e;`;
      const tagEl = document.createElement('span');
      tagEl.textContent = id;
      tagEl.style.cssText = 'position:absolute;left:0;top:-14px;font:11px monospace;background:#e0245e;color:#fff;padding:0 2px';
      b.appendChild(tagEl);
      layer.appendChild(b);
      n++;
    }
    document.documentElement.appendChild(layer);
    return n;
  }

