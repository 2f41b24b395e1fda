// Rendering the view the URL names, on load and on every hash change.
  // ---- render -------------------------------------------------------------------------------------------------
  let renderCount = 0;
  async function render() {
    const ticket = ++renderCount;
    const route = parseHash();
    const tabs =
      kind === 'compare'
        ? [['#compare', 'Compare'], ['#base/grid', 'Base grid'], ['#head/grid', 'Head grid']]
        : [['#overview', 'Overview'], ['#grid', 'Grid'], ['#search', 'Search']];
    const source = kind === 'compare' ? findSource(route.side ?? 'head') : payload;
    let main;
    try {
      if (route.view === 'episode') main = await episodeView(route);
      else if (route.view === 'grid') main = grid(source, route.side, route);
      else if (route.view === 'search') main = searchView(source, route.side, route);
      else if (kind === 'compare') main = compareView();
      else main = overview(source);
    } catch (error) {
      console.error(error);
      main = h('main', h('p.problem', `cannot show this view: ${error.message}`));
    }
    performance.mark('view-built');
    if (ticket !== renderCount) return;
    app.replaceChildren(header(kind === 'compare' ? payload.head : payload, tabs), main);
    if (kind === 'compare') app.querySelector('header h1').textContent = payload.title;
    app.querySelector('header nav')?.before(traceCoverageNote(source));
    if (route.view === 'episode' && route.event !== null) {
      const target = document.getElementById(`event-${route.event}`);
      if (target) {
        target.classList.add('targeted');
        target.scrollIntoView({ block: 'center' });
      }
    } else if (route.view === 'episode') window.scrollTo(0, 0);
    performance.mark('ready');
    document.body.dataset.ready = 'true';
  }
  window.addEventListener('hashchange', render);
  render();
