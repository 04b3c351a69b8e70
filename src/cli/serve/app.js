/* polynav serve: the page's behaviour. Vanilla ES2020, no library, nothing fetched but the
 * server's own JSON API (docs/serve.md is the contract this is written against).
 *
 * How it works. What a plan depends on lives either in `state` (scene, start, goal, reach
 * origin: shared by both panes, so they always plan the same query) or in a Pane (method,
 * smoother, options, picture, view). A change redoes only what it invalidates: a new scene
 * reloads everything, a pane's build key (method, smoother, options, radius, snap) rebuilds
 * that pane (POST /api/build, asked again every POLL_MS while it answers 202), a moved start or
 * goal only replans (POST /api/plan). Each pane keeps at most one plan and one reach request in
 * flight; whatever changes meanwhile is asked for once the answer is in, so dragging a marker
 * never queues stale requests and the latest position wins. A generation counter per pane
 * drops answers that belong to a build key the pane has since left.
 *
 * The server draws the scene and the discretisation; its SVG is inserted inline and the page
 * draws the plan into the svg's own layer groups (expanded, raw-path, path, and its own reach),
 * in picture pixels through PICTURE.transform, styled as include/polynav/io/theme.hpp styles
 * `plan --svg`. Lines, waypoint dots and the start/goal handles keep their screen size at any
 * zoom (theme.hpp's widths are pixels), so a path stays readable far into a large map; expanded
 * squares and reach dots, which mark places, grow with the picture as in `plan --svg`.
 *
 * Ids, classes and attributes the browser test (tests/serve/test_browser.py) relies on:
 *   #scene                  select: the scene (option values: ids from GET /api/scenes)
 *   #query                  select: the scene's queries by index ("" = none picked)
 *   #radius, #snap          the agent radius ("" = the scene's own) and --snap
 *   #compare                checkbox: shows #pane-2 beside #pane-1
 *   #reach-mode, #reach-cost, #reach-clear   reach: clicks set its origin; the cost bound
 *   #layer-inflated, #layer-regions, #layer-discretisation, #layer-queries, #layer-expanded,
 *   #layer-raw-path, #layer-path, #layer-reach   layer checkboxes (LAYERS below: their groups)
 *   #start-text, #goal-text the start and goal as text; data-point = the exact point as JSON
 *   #error                  a refused scene or an unreachable server
 *   #pane-1, #pane-2        the panes, with data-build = loading | building | ready | error
 *                           and data-plan = idle | busy | done | error
 *   inside a pane:
 *     .method, .smoother    selects
 *     .options              <details> of the generated option inputs; each input has
 *                           data-key="GROUP.OPTION" and an id #pane-N-opt-GROUP-OPTION
 *     .fit, .download       buttons
 *     .progress             "building grid… 1.2 s", then the build's summary
 *     .picture svg          the picture; data-transform holds PICTURE.transform as JSON
 *     polyline.planned-path the smoothed path; data-waypoints = JSON of plan.waypoints
 *     polyline.raw-path     the raw path; data-waypoints = JSON of plan.raw_waypoints
 *     g#reach               reach's dots;  g[data-which=start|goal|reach] the draggable markers
 *     .plan-json            #pane-N-plan-json: JSON.stringify(plan), one line (in a closed
 *                           <details>: read its textContent)
 *     .error                #pane-N-error: the server's message of a refused request
 *     .message, .reach-info the plan's message and reach's summary (over the picture)
 *     .stat-status, .stat-length, .stat-cost, .stat-nodes, .stat-build, .stat-search,
 *     .stat-smooth          the result panel
 */
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';
// One width for the scene picture and every build's, so that the view carries over from the
// first to the second (the server keeps a build's picture at the first width asked for).
const PICTURE_WIDTH = 1000;
const POLL_MS = 250;         // between asks while a build runs (202)
const CLICK_SLOP_PX = 4;     // a press that moves less than this is a click, not a drag
const MAX_ZOOM_IN = 400;     // the narrowest view: the picture's width / this
const MAX_ZOOM_OUT = 5;      // the widest view: the picture's width * this
// Past this many expanded or reached nodes a layer is drawn as one bitmap instead of vector
// shapes: otherwise every pan or zoom frame rasterises them all again (300k expanded nodes of
// a large map took 0.4 s a frame in Chromium, as a bitmap they cost nothing).
const RASTER_FROM = 20000;
const RASTER_SCALE = 2;      // bitmap pixels per picture pixel

// include/polynav/io/theme.hpp, the part the page draws with.
const THEME = {
  start: '#0969da', goal: '#cf222e', white: '#ffffff',
  path: '#0969da', pathWidth: 2.6,
  rawPath: '#8250df', rawPathWidth: 1.4, rawPathDash: '4 3',
  expanded: '#e8a33d', expandedOpacity: 0.22, expandedSize: 1.6,
  waypointSize: 5, waypointStroke: 1.2,
  reach: '#2f81f7', reachLow: 0.3, reachRange: 0.6, reachSize: 6,
  markerSize: 12, markerStroke: 1.5,  // theme's query markers are 10; handles are a bit larger
};

// Each layer checkbox (#layer-NAME) and the svg groups it shows or hides.
const LAYERS = {
  inflated: ['inflated'],
  regions: ['regions', 'heights'],
  discretisation: ['grid', 'graph'],
  queries: ['queries'],
  expanded: ['expanded'],
  'raw-path': ['raw-path'],
  path: ['path'],
  reach: ['reach'],
};

// Picture layers bottom to top: scene_layers of include/polynav/io/scene_picture.hpp plus the
// page's reach (under the plan). Fills in what PICTURE.layers does not name.
const LAYER_ORDER = ['frame', 'cells', 'bounds', 'regions', 'heights', 'clearance', 'obstacles',
  'blocked', 'walls', 'inflated', 'labels', 'grid', 'graph', 'reach', 'expanded', 'raw-path',
  'path', 'queries', 'title', 'legend'];

const state = {
  registry: null,   // GET /api/methods
  scene: null,      // POST /api/scene's answer for the scene shown
  sceneGen: 0,      // drops a scene answer that a later pick has overtaken
  start: null,      // world [x, y]
  goal: null,
  next: 'start',    // what the next click on the picture sets
  reachFrom: null,
  panes: [],
};

// --- Small helpers ---------------------------------------------------------------------------

const $ = (selector, root = document) => root.querySelector(selector);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round2 = (value) => Math.round(value * 100) / 100;
const clamp = (value, low, high) => Math.min(high, Math.max(low, value));

function svgElement(tag, attributes = {}) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

function htmlElement(tag, attributes = {}, text = '') {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text) element.textContent = text;
  return element;
}

const formatNumber = (value, digits = 3) =>
  (typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : '—');
const formatMs = (value) =>
  (typeof value === 'number' ? `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms` : '—');
const formatPoint = (point) =>
  (point ? `${formatNumber(point[0])}, ${formatNumber(point[1])}` : '—');

// A number typed in a field, sent as a number when it is one, else as typed: the server's
// refusal then names the bad value, which says more than anything the page could.
function typedNumber(text) {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) ? value : text;
}

// One request to the API: {status, data}, data being the parsed JSON, or {error} when the reply
// is not JSON or there was none (status 0).
async function api(path, body) {
  const init = body === undefined ? {} : {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body),
  };
  let reply;
  try {
    reply = await fetch(path, init);
  } catch (error) {
    return {status: 0, data: {error: `no answer from the server (${error.message})`}};
  }
  const text = await reply.text();
  try {
    return {status: reply.status, data: JSON.parse(text)};
  } catch {
    const error = text.trim() || `${reply.status} ${reply.statusText}`;
    return {status: reply.status, data: {error}};
  }
}

// World point -> picture pixel: px = ox + (x - minx) * s, py = oy + (maxy - y) * s; and back.
function toPixel(transform, [x, y]) {
  return [transform.origin[0] + (x - transform.world[0]) * transform.scale,
    transform.origin[1] + (transform.world[3] - y) * transform.scale];
}
function toWorld(transform, [px, py]) {
  return [transform.world[0] + (px - transform.origin[0]) / transform.scale,
    transform.world[3] - (py - transform.origin[1]) / transform.scale];
}

const pixelList = (transform, points) =>
  points.map((point) => toPixel(transform, point).map(round2).join(',')).join(' ');

// Zero-length subpaths with round caps: one element draws any number of dots, and with a
// non-scaling stroke they keep their size at every zoom.
const dotsPath = (transform, points) => points.map((point) => {
  const [x, y] = toPixel(transform, point);
  return `M${round2(x)} ${round2(y)}h0`;
}).join('');

// Gives the ids of the svg's <defs> (and the references to them) the pane's prefix: both panes'
// svgs are in one document, where a url(#id) would otherwise find the other pane's element.
function scopeDefIds(svgText, prefix) {
  const defs = /<defs>([\s\S]*?)<\/defs>/.exec(svgText);
  if (!defs) return svgText;
  const ids = new Set([...defs[1].matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]));
  if (!ids.size) return svgText;
  return svgText.replace(/(\sid="|url\(#|href="#)([^")]+)/g,
    (all, lead, id) => (ids.has(id) ? lead + prefix + id : all));
}

// A layer of many small shapes as one bitmap <image> over the whole picture, painted by
// `paint(context)` in picture pixels. Pixelated when magnified: its shapes are squares and
// dots, which stay sharp-edged rather than blurred.
function rasterLayer(picture, paint) {
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(picture.width * RASTER_SCALE);
  canvas.height = Math.ceil(picture.height * RASTER_SCALE);
  const context = canvas.getContext('2d');
  context.scale(RASTER_SCALE, RASTER_SCALE);
  paint(context);
  return svgElement('image', {
    href: canvas.toDataURL('image/png'), x: 0, y: 0, width: picture.width,
    height: picture.height, preserveAspectRatio: 'none', style: 'image-rendering: pixelated'});
}

const layerOn = (name) => $(`#layer-${name}`).checked;

// The build-key fields both panes share.
function sharedKey() {
  const key = {scene: $('#scene').value};
  const radius = $('#radius').value.trim();
  if (radius !== '') key.radius = typedNumber(radius);
  if ($('#snap').checked) key.snap = true;
  return key;
}

function showGlobalError(message) {
  const line = $('#error');
  line.textContent = message || '';
  line.hidden = !message;
}

// Runs an asynchronous job at most once at a time: asked again while it runs, it runs once more
// when it is done, for whatever the state is then. So dragging a marker never queues stale
// requests, and the latest position always gets its answer.
class LatestOnly {
  constructor(job) {
    this.job = job;
    this.busy = false;
    this.again = false;
  }

  async request() {
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    try {
      do {
        this.again = false;
        await this.job();
      } while (this.again);
    } finally {
      this.busy = false;
    }
  }
}

// --- A pane: one planner's controls, picture and result -------------------------------------

class Pane {
  constructor(index) {
    this.index = index;
    this.el = $('#pane-template').content.firstElementChild.cloneNode(true);
    this.el.id = `pane-${index}`;
    this.el.setAttribute('aria-label', `planner ${index}`);
    this.el.dataset.build = 'loading';
    this.el.dataset.plan = 'idle';
    this.holder = $('.picture', this.el);
    this.progress = $('.progress', this.el);
    this.errorLine = $('.notes .error', this.el);
    $('.plan-json', this.el).id = `pane-${index}-plan-json`;
    this.errorLine.id = `pane-${index}-error`;
    $('#panes').append(this.el);

    this.method = 'grid';
    this.smoother = 'shortcut';
    this.set = new Map();       // GROUP.OPTION -> value, only the options the user changed
    this.gen = 0;               // bumped whenever the build key changes
    this.ready = false;         // the current key's build is in and its picture shown
    this.build = null;          // /api/build's answer
    this.picture = null;        // PICTURE shown
    this.svg = null;
    this.view = null;           // the viewBox {x, y, w, h}, kept at the holder's aspect
    this.viewFrame = 0;         // the pending requestAnimationFrame, if any
    this.fitted = true;         // the view is the fitted one (then a resize refits it)
    this.box = {width: 0, height: 0};
    this.drag = null;
    this.plan = null;
    this.expanded = null;
    this.reach = null;
    this.planRequests = new LatestOnly(() => this.fetchPlan());
    this.reachRequests = new LatestOnly(() => this.fetchReach());
    this.wire();
  }

  get visible() {
    return !this.el.hidden;
  }

  key() {
    const key = {...sharedKey(), method: this.method, smoother: this.smoother};
    if (this.set.size) key.set = Object.fromEntries(this.set);
    return key;
  }

  wire() {
    const methodSelect = $('.method', this.el);
    const smootherSelect = $('.smoother', this.el);
    methodSelect.addEventListener('change', () => {
      this.forgetGroup(this.method);
      this.method = methodSelect.value;
      this.buildOptions();
      this.rebuild();
    });
    smootherSelect.addEventListener('change', () => {
      this.forgetGroup(this.smoother);
      this.smoother = smootherSelect.value;
      this.buildOptions();
      this.rebuild();
    });
    $('.options-reset', this.el).addEventListener('click', () => {
      this.set.clear();
      this.buildOptions();
      this.rebuild();
    });
    $('.fit', this.el).addEventListener('click', () => this.fit());
    $('.download', this.el).addEventListener('click', () => this.download());

    const holder = this.holder;
    holder.addEventListener('pointerdown', (event) => this.pointerDown(event));
    holder.addEventListener('pointermove', (event) => this.pointerMove(event));
    holder.addEventListener('pointerup', (event) => this.pointerUp(event));
    holder.addEventListener('pointercancel', () => this.endDrag());
    // Not passive: the wheel zooms the picture instead of scrolling the page.
    holder.addEventListener('wheel', (event) => this.wheel(event), {passive: false});
    new ResizeObserver(() => this.resized()).observe(holder);
  }

  // --- Methods, smoothers and their options

  fillSelects() {
    const fill = (select, entries, chosen) => {
      select.replaceChildren(...entries.map((entry) =>
        htmlElement('option', {value: entry.name, title: entry.summary || ''}, entry.name)));
      select.value = chosen;
      if (!select.value && entries.length) select.value = entries[0].name;
    };
    fill($('.method', this.el), state.registry.methods || [], this.method);
    fill($('.smoother', this.el), state.registry.smoothers || [], this.smoother);
    this.method = $('.method', this.el).value;
    this.smoother = $('.smoother', this.el).value;
    this.buildOptions();
  }

  // A method's or smoother's options mean nothing to another one: drop them with it.
  forgetGroup(group) {
    for (const key of [...this.set.keys()]) if (key.startsWith(`${group}.`)) this.set.delete(key);
  }

  // One input per option of the chosen method and smoother and of the search and the free
  // space, generated from the registry; what the user leaves at its default is not sent.
  buildOptions() {
    const registry = state.registry;
    const find = (list, name) => (list || []).find((entry) => entry.name === name);
    const groups = [
      [this.method, find(registry.methods, this.method)?.options],
      [this.smoother, find(registry.smoothers, this.smoother)?.options],
      ['search', registry.search],
      ['space', registry.space],
    ];
    const body = $('.options-body', this.el);
    body.replaceChildren();
    for (const [group, options] of groups) {
      if (!options || !options.length) continue;
      const fieldset = htmlElement('fieldset');
      fieldset.append(htmlElement('legend', {}, group));
      for (const option of options) fieldset.append(this.optionRow(group, option));
      body.append(fieldset);
    }
    this.updateBadge();
  }

  optionRow(group, option) {
    const key = `${group}.${option.name}`;
    const id = `${this.el.id}-opt-${group}-${option.name}`.replace(/[^\w-]/g, '_');
    const value = this.set.has(key) ? this.set.get(key) : String(option.default);
    const tip = [option.doc, option.limits, option.unit ? `Unit: ${option.unit}` : '']
      .filter(Boolean).join('\n');

    const row = htmlElement('div', {class: 'option', title: tip});
    const label = htmlElement('label', {for: id}, option.name);
    if (option.unit) label.append(htmlElement('span', {class: 'unit'}, option.unit));
    let input;
    if (option.choices) {
      input = htmlElement('select');
      for (const choice of option.choices) {
        input.append(htmlElement('option', {value: choice}, choice));
      }
      input.value = value;
    } else if (option.type === 'flag') {
      input = htmlElement('input', {type: 'checkbox'});
      input.checked = value === 'true';
    } else {
      input = htmlElement('input', {
        type: 'text', inputmode: option.type === 'integer' ? 'numeric' : 'decimal',
        placeholder: option.default, autocomplete: 'off', spellcheck: 'false',
      });
      input.value = value;
    }
    input.id = id;
    input.dataset.key = key;
    input.title = tip;
    input.classList.toggle('changed', this.set.has(key));
    input.addEventListener('change', () => {
      let typed = input.type === 'checkbox' ? String(input.checked) : input.value.trim();
      if (typed === '') typed = input.value = String(option.default);  // empty = the default
      if (typed === String(option.default)) this.set.delete(key); else this.set.set(key, typed);
      input.classList.toggle('changed', this.set.has(key));
      this.updateBadge();
      this.rebuild();
    });
    row.append(label, input);
    return row;
  }

  updateBadge() {
    const badge = $('.options .badge', this.el);
    badge.textContent = String(this.set.size);
    badge.hidden = this.set.size === 0;
  }

  // --- Build, plan, reach

  setBuildState(buildState, text, tip = '') {
    this.el.dataset.build = buildState;  // the progress line's look follows it (style.css)
    this.progress.textContent = text;
    this.progress.title = tip;
  }

  showError(message) {
    this.errorLine.textContent = message || '';
    this.errorLine.hidden = !message;
  }

  // POSTs until the answer is no longer 202 (the build still running), showing the build's
  // progress meanwhile; null when the pane's build key changed (the answer would be stale).
  async untilBuilt(path, body, gen) {
    for (;;) {
      const answer = await api(path, body);
      if (gen !== this.gen) return null;
      if (answer.status !== 202) return answer;
      const seconds = (Number(answer.data.elapsed_ms) || 0) / 1000;
      this.setBuildState('building', `building ${body.method}… ${seconds.toFixed(1)} s`);
      await sleep(POLL_MS);
      if (gen !== this.gen) return null;
    }
  }

  // The build key changed (or the scene did): build anew, then plan and reach again.
  async rebuild() {
    const gen = ++this.gen;
    this.ready = false;
    this.build = null;
    this.setPlan(null);
    this.setReach(null);
    this.showError('');
    if (!this.visible || !state.scene) return;
    this.setBuildState('building', `building ${this.method}…`);
    const answer = await this.untilBuilt('/api/build', {...this.key(), width: PICTURE_WIDTH}, gen);
    if (!answer) return;
    if (answer.status !== 200) {
      this.setBuildState('error', 'not built');
      this.showError(answer.data.error || `build failed (${answer.status})`);
      return;
    }
    this.build = answer.data;
    this.setPicture(answer.data.picture);
    this.ready = true;
    this.showReady();
    this.showResult();
    this.requestPlan();
    this.requestReach();
  }

  showReady() {
    const build = this.build;
    this.setBuildState('ready', `${build.nodes} nodes · ${formatMs(build.build_ms)}`,
      build.summary || '');
  }

  // Asks for the plan of the current start and goal (see LatestOnly).
  requestPlan() {
    return this.planRequests.request();
  }

  async fetchPlan() {
    if (!this.visible || !this.ready) return;  // rebuild() asks again once built
    if (!state.start || !state.goal) {
      this.setPlan(null);
      return;
    }
    const gen = this.gen;
    const body = {...this.key(), start: state.start, goal: state.goal};
    // Expanded nodes can be many: only asked for while they are shown.
    if (layerOn('expanded')) body.expanded = true;
    this.el.dataset.plan = 'busy';
    const answer = await this.untilBuilt('/api/plan', body, gen);
    if (!answer) return;
    if (this.ready) this.showReady();  // after any 202's progress text
    if (answer.status === 200) {
      this.showError('');
      this.setPlan(answer.data.plan, answer.data.expanded);
    } else {
      this.showError(answer.data.error || `plan failed (${answer.status})`);
      this.el.dataset.plan = 'error';
    }
  }

  // Asks for the region reached from the reach origin (see LatestOnly).
  requestReach() {
    return this.reachRequests.request();
  }

  async fetchReach() {
    if (!this.visible || !this.ready) return;
    if (!state.reachFrom) {
      this.setReach(null);
      return;
    }
    const gen = this.gen;
    const body = {...this.key(), from: state.reachFrom, cost: typedNumber($('#reach-cost').value)};
    const answer = await this.untilBuilt('/api/reach', body, gen);
    if (!answer) return;
    if (this.ready) this.showReady();
    if (answer.status === 200) {
      this.showError('');
      this.setReach(answer.data.reach);
    } else {
      this.showError(answer.data.error || `reach failed (${answer.status})`);
    }
  }

  setPlan(plan, expanded = null) {
    this.plan = plan;
    this.expanded = expanded;
    this.drawPlan();
    this.showResult();
  }

  setReach(reach) {
    this.reach = reach;
    this.drawReach();
    const info = $('.reach-info', this.el);
    info.textContent = reach
      ? `reach: ${reach.nodes.length} nodes within cost ${formatNumber(reach.cost)}` +
        (reach.status && reach.status !== 'found' ? ` (${reach.status})` : '') +
        (reach.message ? ` — ${reach.message}` : '')
      : '';
  }

  showResult() {
    const plan = this.plan;
    const stats = plan?.stats || {};
    const put = (name, text) => { $(`.stat-${name}`, this.el).textContent = text; };
    const status = $('.stat-status', this.el);
    status.textContent = plan ? plan.status : '—';
    status.className = `stat-status ${plan ? `status-${plan.status}` : ''}`;
    put('length', formatNumber(plan?.length));
    put('cost', formatNumber(plan?.cost));
    put('nodes', plan ? `${stats.expanded ?? '—'} / ${stats.nodes ?? '—'}`
      : this.build ? `— / ${this.build.nodes}` : '—');
    put('build', formatMs(plan ? stats.build_ms : this.build?.build_ms));
    put('search', formatMs(stats.search_ms));
    put('smooth', formatMs(stats.smooth_ms));
    $('.message', this.el).textContent = plan?.message || '';
    $('.plan-json', this.el).textContent = plan ? JSON.stringify(plan) : '';
    if (plan) this.el.dataset.plan = 'done';
    else if (this.el.dataset.plan !== 'busy') this.el.dataset.plan = 'idle';
  }

  // --- The picture

  // Shows a PICTURE (the scene's, then each build's). The view carries over when the new
  // picture has the same size (a rebuild of the same scene), else it is fitted.
  setPicture(picture) {
    const sameSize = this.picture && this.view &&
      this.picture.width === picture.width && this.picture.height === picture.height;
    this.picture = picture;
    // The HTML parser reads inline svg, and is much faster on large pictures than building
    // the tree by hand.
    this.holder.innerHTML = scopeDefIds(picture.svg, `${this.el.id}-`);
    const svg = this.holder.querySelector('svg');
    // The holder sizes the picture; the viewBox alone does the zooming.
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    svg.dataset.transform = JSON.stringify(picture.transform);
    this.svg = svg;
    for (const id of ['expanded', 'raw-path', 'path', 'reach']) this.group(id);
    this.markers();
    if (sameSize) this.applyView(); else this.fit();
    this.drawPlan();
    this.drawReach();
    this.applyLayers();
  }

  // The svg's top-level group `id`, created (empty) at its place in the layer order when the
  // server left it out.
  group(id) {
    const svg = this.svg;
    const child = (name) => [...svg.children].find((element) => element.id === name &&
      element.tagName === 'g');
    let group = child(id);
    if (group) return group;
    const known = this.picture.layers || [];
    const order = [...known];
    LAYER_ORDER.forEach((name, i) => {  // merge: put each missing id after its predecessor
      if (order.includes(name)) return;
      let at = 0;
      for (let j = i - 1; j >= 0; j--) {
        const k = order.indexOf(LAYER_ORDER[j]);
        if (k >= 0) {
          at = k + 1;
          break;
        }
      }
      order.splice(at, 0, name);
    });
    const later = order.slice(order.indexOf(id) + 1).map(child).find(Boolean);
    group = svgElement('g', {id});
    svg.insertBefore(group, later || child('page-markers') || null);
    return group;
  }

  // The start, goal and reach-origin handles, above everything. They are scaled by the zoom
  // so that they keep one size on screen.
  markers() {
    let group = [...this.svg.children].find((element) => element.id === 'page-markers');
    if (group) return group;
    group = svgElement('g', {id: 'page-markers'});
    const handle = (which, label, shapes) => {
      const marker = svgElement('g',
        {class: `marker ${which}`, 'data-which': which, display: 'none'});
      const title = svgElement('title');
      title.textContent = `${label}: drag to move`;
      // A larger invisible disc makes the handle easy to grab.
      const hit = svgElement('circle', {class: 'hit', r: 11, fill: '#000', 'fill-opacity': 0});
      marker.append(title, hit, ...shapes);
      return marker;
    };
    const r = THEME.markerSize / 2;
    group.append(
      handle('reach', 'reach origin', [
        svgElement('circle',
          {r: r - 1, fill: THEME.white, stroke: THEME.reach, 'stroke-width': 2.5}),
        svgElement('circle', {r: 1.8, fill: THEME.reach})]),
      handle('start', 'start', [svgElement('circle', {
        r, fill: THEME.start, stroke: THEME.white, 'stroke-width': THEME.markerStroke})]),
      handle('goal', 'goal', [svgElement('path', {
        d: `M0 ${-r * 1.25}L${r * 1.25} 0 0 ${r * 1.25} ${-r * 1.25} 0Z`,
        fill: THEME.goal, stroke: THEME.white, 'stroke-width': THEME.markerStroke})]));
    this.svg.append(group);
    return group;
  }

  updateMarkers() {
    if (!this.svg || !this.picture) return;
    const group = this.markers();
    const perPixel = this.view && this.box.width ? this.view.w / this.box.width : 1;
    for (const [which, point] of [['start', state.start], ['goal', state.goal],
      ['reach', state.reachFrom]]) {
      const marker = group.querySelector(`[data-which="${which}"]`);
      if (!point) {
        marker.setAttribute('display', 'none');
        continue;
      }
      const [x, y] = toPixel(this.picture.transform, point);
      marker.removeAttribute('display');
      marker.setAttribute('transform', `translate(${round2(x)} ${round2(y)}) scale(${perPixel})`);
    }
  }

  drawPlan() {
    if (!this.svg) return;
    const transform = this.picture.transform;
    const expandedGroup = this.group('expanded');
    const rawGroup = this.group('raw-path');
    const pathGroup = this.group('path');
    expandedGroup.replaceChildren();
    rawGroup.replaceChildren();
    pathGroup.replaceChildren();
    const plan = this.plan;
    if (!plan) return;

    const expanded = this.expanded || [];
    const size = THEME.expandedSize;
    if (expanded.length > RASTER_FROM) {
      expandedGroup.append(rasterLayer(this.picture, (context) => {
        context.fillStyle = THEME.expanded;
        context.globalAlpha = THEME.expandedOpacity;
        context.beginPath();
        for (const point of expanded) {
          const [x, y] = toPixel(transform, point);
          context.rect(x - size / 2, y - size / 2, size, size);
        }
        context.fill();
      }));
    } else if (expanded.length) {
      // One square per expanded node, as `plan --svg` draws them, in one element.
      const d = expanded.map((point) => {
        const [x, y] = toPixel(transform, point);
        return `M${round2(x - size / 2)} ${round2(y - size / 2)}h${size}v${size}h${-size}z`;
      }).join('');
      expandedGroup.append(svgElement('path', {
        d, fill: THEME.expanded, 'fill-opacity': THEME.expandedOpacity}));
    }

    const line = (className, points, stroke, width, extra = {}) => svgElement('polyline', {
      class: className, 'data-waypoints': JSON.stringify(points),
      points: pixelList(transform, points), fill: 'none', stroke, 'stroke-width': width,
      'stroke-linejoin': 'round', 'stroke-linecap': 'round',
      'vector-effect': 'non-scaling-stroke', ...extra});
    const raw = plan.raw_waypoints || [];
    if (raw.length) {
      rawGroup.append(line('raw-path', plan.raw_waypoints, THEME.rawPath, THEME.rawPathWidth,
        {'stroke-dasharray': THEME.rawPathDash}));
    }
    const points = plan.waypoints || [];
    if (points.length) {
      const dots = dotsPath(transform, points);
      const dot = (colour, size) => svgElement('path', {
        d: dots, fill: 'none', stroke: colour, 'stroke-width': size, 'stroke-linecap': 'round',
        'vector-effect': 'non-scaling-stroke'});
      // A waypoint is a white disc ringed in the path's colour: a path-coloured dot under a
      // smaller white one.
      pathGroup.append(line('planned-path', plan.waypoints, THEME.path, THEME.pathWidth),
        dot(THEME.path, THEME.waypointSize + THEME.waypointStroke),
        dot(THEME.white, THEME.waypointSize - THEME.waypointStroke));
    }
  }

  drawReach() {
    if (!this.svg) return;
    const group = this.group('reach');
    group.replaceChildren();
    const nodes = this.reach?.nodes || [];
    if (!nodes.length) return;
    // theme.hpp shades reached nodes by opacity, from reachLow at the most expensive to
    // reachLow + reachRange at the origin; a dozen steps look continuous and keep the element
    // count small on large reaches. The dots are filled octagons in picture pixels: a reach
    // can have a node per map cell, and filled shapes pan several times faster than stroked
    // round caps (measured in Chromium).
    const steps = 12;
    const maxCost = nodes.reduce((most, node) => Math.max(most, node.cost), 0);
    const buckets = Array.from({length: steps}, () => []);
    for (const node of nodes) {
      const share = maxCost > 0 ? node.cost / maxCost : 0;
      buckets[Math.min(steps - 1, Math.floor(share * steps))].push(node.at);
    }
    const opacity = (step) =>
      round2(THEME.reachLow + THEME.reachRange * (1 - (step + 0.5) / steps));
    const r = THEME.reachSize / 2;
    const transform = this.picture.transform;
    if (nodes.length > RASTER_FROM) {
      group.append(rasterLayer(this.picture, (context) => {
        context.fillStyle = THEME.reach;
        for (let step = steps - 1; step >= 0; step--) {  // dearest first, the origin's on top
          context.globalAlpha = opacity(step);
          context.beginPath();
          for (const point of buckets[step]) {
            const [x, y] = toPixel(transform, point);
            context.moveTo(x + r, y);
            context.arc(x, y, r, 0, 2 * Math.PI);
          }
          context.fill();
        }
      }));
      return;
    }
    const a = round2(r * Math.SQRT1_2);
    const b = round2(r - r * Math.SQRT1_2);
    // From the octagon's leftmost point, clockwise, in relative moves.
    const octagon = `l${b} ${-a}l${a} ${-b}l${a} ${b}l${b} ${a}l${-b} ${a}l${-a} ${b}l${-a} ${-b}z`;
    for (let step = steps - 1; step >= 0; step--) {
      if (!buckets[step].length) continue;
      const d = buckets[step].map((point) => {
        const [x, y] = toPixel(transform, point);
        return `M${round2(x - r)} ${round2(y)}${octagon}`;
      }).join('');
      group.append(svgElement('path', {d, fill: THEME.reach, 'fill-opacity': opacity(step)}));
    }
  }

  applyLayers() {
    if (!this.svg) return;
    for (const [name, ids] of Object.entries(LAYERS)) {
      const shown = layerOn(name);
      for (const element of this.svg.children) {
        if (element.tagName === 'g' && ids.includes(element.id)) {
          element.style.display = shown ? '' : 'none';
        }
      }
    }
  }

  // --- Zoom and pan: only the viewBox changes, at most once per frame

  fit() {
    if (!this.picture) return;
    const {width, height} = this.picture;
    const aspect = this.box.width && this.box.height ? this.box.width / this.box.height
      : width / height;
    let w = width;
    let h = height;
    if (width / height > aspect) h = width / aspect; else w = height * aspect;
    this.fitted = true;
    this.view = {x: (width - w) / 2, y: (height - h) / 2, w, h};
    this.applyView();
  }

  setView(view) {
    this.view = view;
    this.fitted = false;
    if (!this.viewFrame) {
      this.viewFrame = requestAnimationFrame(() => {
        this.viewFrame = 0;
        this.applyView();
      });
    }
  }

  applyView() {
    if (!this.svg || !this.view) return;
    const {x, y, w, h} = this.view;
    this.svg.setAttribute('viewBox', `${x} ${y} ${w} ${h}`);
    this.updateMarkers();
  }

  // The holder changed size: a fitted view is fitted again, any other keeps its centre and
  // its scale, and the viewBox keeps the holder's aspect so that no space is letterboxed.
  resized() {
    const {width, height} = this.holder.getBoundingClientRect();
    if (width === this.box.width && height === this.box.height) return;
    const before = this.box;
    this.box = {width, height};
    if (!this.view || !width || !height) return;
    if (this.fitted || !before.width) {
      this.fit();
      return;
    }
    const perPixel = this.view.w / before.width;
    const cx = this.view.x + this.view.w / 2;
    const cy = this.view.y + this.view.h / 2;
    const w = perPixel * width;
    const h = perPixel * height;
    this.view = {x: cx - w / 2, y: cy - h / 2, w, h};
    this.applyView();
  }

  wheel(event) {
    if (!this.view || !this.picture) return;
    event.preventDefault();
    const box = this.holder.getBoundingClientRect();
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? box.height : 1;
    const factor = Math.exp(-event.deltaY * unit * 0.0015);  // > 1 zooms in
    const view = this.view;
    // Keep the point under the cursor where it is (the view has the holder's aspect).
    const fx = (event.clientX - box.left) / box.width;
    const fy = (event.clientY - box.top) / box.height;
    const ux = view.x + fx * view.w;
    const uy = view.y + fy * view.h;
    const w = clamp(view.w / factor, this.picture.width / MAX_ZOOM_IN,
      this.picture.width * MAX_ZOOM_OUT);
    const h = w * view.h / view.w;
    this.setView({x: ux - fx * w, y: uy - fy * h, w, h});
  }

  // Client coordinates -> picture pixels (through the svg's own screen transform, which
  // accounts for the viewBox) -> world.
  clientToWorld(clientX, clientY) {
    const pixel = new DOMPoint(clientX, clientY).matrixTransform(this.svg.getScreenCTM().inverse());
    return toWorld(this.picture.transform, [pixel.x, pixel.y]);
  }

  pointerDown(event) {
    if (event.button !== 0 || !this.svg || !this.view) return;
    const marker = event.target.closest?.('.marker');
    this.holder.setPointerCapture(event.pointerId);
    this.drag = {
      pointerId: event.pointerId, x0: event.clientX, y0: event.clientY, view0: {...this.view},
      marker: marker ? marker.dataset.which : null, moved: false,
    };
    event.preventDefault();
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointerId) return;
    const dx = event.clientX - drag.x0;
    const dy = event.clientY - drag.y0;
    if (!drag.moved && Math.hypot(dx, dy) < CLICK_SLOP_PX) return;
    drag.moved = true;
    if (drag.marker) {
      moveMarker(drag.marker, this.clientToWorld(event.clientX, event.clientY));
    } else {
      this.holder.classList.add('panning');
      const perPixel = drag.view0.w / this.box.width;
      const view0 = drag.view0;
      this.setView({...view0, x: view0.x - dx * perPixel, y: view0.y - dy * perPixel});
    }
  }

  pointerUp(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointerId) return;
    this.endDrag();
    if (drag.marker) {
      if (drag.moved) moveMarker(drag.marker, this.clientToWorld(event.clientX, event.clientY));
    } else if (!drag.moved) {
      pictureClicked(this.clientToWorld(event.clientX, event.clientY), event.shiftKey);
    }
  }

  endDrag() {
    this.drag = null;
    this.holder.classList.remove('panning');
  }

  // --- Download

  // The picture as shown (layers, plan, markers), at its full extent and natural size.
  download() {
    if (!this.svg) return;
    const copy = this.svg.cloneNode(true);
    const {width, height} = this.picture;
    copy.setAttribute('viewBox', `0 0 ${width} ${height}`);
    copy.setAttribute('width', String(width));
    copy.setAttribute('height', String(height));
    copy.removeAttribute('data-transform');
    for (const hit of copy.querySelectorAll('.hit')) hit.remove();
    for (const marker of copy.querySelectorAll('.marker')) {  // handles at their natural size
      const transform = marker.getAttribute('transform');
      if (transform) {
        marker.setAttribute('transform', transform.replace(/scale\([^)]*\)/, 'scale(1)'));
      }
    }
    const text = '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `${new XMLSerializer().serializeToString(copy)}\n`;
    const link = htmlElement('a', {
      href: URL.createObjectURL(new Blob([text], {type: 'image/svg+xml'})),
      download: `${fileName(state.scene?.name || 'scene')}-${fileName(this.method)}.svg`,
    });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  }
}

const fileName = (text) => String(text).replace(/[^\w.-]+/g, '_');

// --- What both panes share -------------------------------------------------------------------

const visiblePanes = () => state.panes.filter((pane) => pane.visible);

function showPoints() {
  for (const which of ['start', 'goal']) {
    const text = $(`#${which}-text`);
    text.textContent = formatPoint(state[which]);
    text.dataset.point = JSON.stringify(state[which]);  // exact, for the test
  }
  $('#click-hint').textContent = $('#reach-mode').checked
    ? 'Click the picture to set where reach starts.'
    : `Click the picture to set the ${state.next}.`;
}

function pointsChanged() {
  showPoints();
  for (const pane of state.panes) {
    pane.updateMarkers();
    pane.requestPlan();
  }
}

function reachChanged() {
  for (const pane of state.panes) {
    pane.updateMarkers();
    pane.requestReach();
  }
}

function pictureClicked(world, shift) {
  if (shift || $('#reach-mode').checked) {
    state.reachFrom = world;
    reachChanged();
    return;
  }
  state[state.next] = world;
  state.next = state.next === 'start' ? 'goal' : 'start';
  $('#query').value = '';
  pointsChanged();
}

// A marker dragged to `world`: each pane replans (or reaches) with at most one request in
// flight, and the position at the time of the next request wins.
function moveMarker(which, world) {
  if (which === 'reach') {
    state.reachFrom = world;
    reachChanged();
    return;
  }
  state[which] = world;
  $('#query').value = '';
  pointsChanged();
}

// The scene picked (or its radius changed): its picture first, then each pane builds.
async function loadScene({keepPoints = false} = {}) {
  const gen = ++state.sceneGen;
  state.scene = null;
  if (!keepPoints) {
    state.start = state.goal = state.reachFrom = null;
    state.next = 'start';
  }
  for (const pane of state.panes) {
    pane.gen++;  // drops whatever the panes were waiting for
    pane.ready = false;
    pane.setBuildState('loading', 'loading scene…');
  }
  const body = {scene: $('#scene').value, width: PICTURE_WIDTH};
  const radius = $('#radius').value.trim();
  if (radius !== '') body.radius = typedNumber(radius);
  const answer = await api('/api/scene', body);
  if (gen !== state.sceneGen) return;
  if (answer.status !== 200) {
    const message = answer.data.error || `scene failed (${answer.status})`;
    showGlobalError(message);
    for (const pane of state.panes) {
      pane.setBuildState('error', 'no scene');
      pane.showError(message);
    }
    return;
  }
  showGlobalError('');
  state.scene = answer.data;
  const query = $('#query');
  query.replaceChildren(htmlElement('option', {value: ''}, '— click the picture —'),
    ...answer.data.queries.map((q, i) => htmlElement('option', {value: String(i)},
      q.name || `query ${i + 1}`)));
  query.disabled = answer.data.queries.length === 0;
  showPoints();
  for (const pane of state.panes) {
    pane.plan = null;
    pane.reach = null;
    pane.setPicture(answer.data.picture);
    pane.updateMarkers();
    pane.rebuild();
  }
}

function rebuildAll() {
  for (const pane of state.panes) pane.rebuild();
}

function wireControls() {
  $('#scene').addEventListener('change', () => loadScene());
  $('#radius').addEventListener('change', () => loadScene({keepPoints: true}));
  $('#snap').addEventListener('change', rebuildAll);
  $('#query').addEventListener('change', (event) => {
    const q = state.scene?.queries[Number(event.target.value)];
    if (!event.target.value || !q) return;
    state.start = [...q.start];
    state.goal = [...q.goal];
    state.next = 'start';
    pointsChanged();
  });
  $('#swap').addEventListener('click', () => {
    [state.start, state.goal] = [state.goal, state.start];
    $('#query').value = '';
    pointsChanged();
  });
  $('#clear-points').addEventListener('click', () => {
    state.start = state.goal = null;
    state.next = 'start';
    $('#query').value = '';
    pointsChanged();
  });
  $('#reach-mode').addEventListener('change', () => {
    document.body.classList.toggle('reach-mode', $('#reach-mode').checked);
    showPoints();
  });
  $('#reach-cost').addEventListener('change', reachChanged);
  $('#reach-clear').addEventListener('click', () => {
    state.reachFrom = null;
    reachChanged();
  });
  for (const name of Object.keys(LAYERS)) {
    $(`#layer-${name}`).addEventListener('change', () => {
      for (const pane of state.panes) pane.applyLayers();
      // Expanded nodes come with a plan, and only when asked for.
      if (name === 'expanded' && layerOn('expanded')) {
        for (const pane of state.panes) pane.requestPlan();
      }
    });
  }
  // An options panel covers part of the picture: a press elsewhere or Escape closes it.
  document.addEventListener('pointerdown', (event) => {
    for (const open of document.querySelectorAll('details.options[open]')) {
      if (!open.contains(event.target)) open.open = false;
    }
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    for (const open of document.querySelectorAll('details.options[open]')) open.open = false;
  });
  $('#compare').addEventListener('change', () => {
    const second = state.panes[1];
    const on = $('#compare').checked;
    second.el.hidden = !on;
    $('#panes').classList.toggle('compare', on);
    if (on && state.scene) {
      if (!second.picture) second.setPicture(state.scene.picture);
      second.rebuild();
    } else if (!on) {
      second.gen++;  // its answers are no longer wanted
      second.ready = false;
    }
  });
}

async function init() {
  state.panes = [new Pane(1), new Pane(2)];
  state.panes[1].el.hidden = true;
  wireControls();
  const [scenes, methods, status] = await Promise.all([
    api('/api/scenes'), api('/api/methods'), api('/api/status')]);
  if (scenes.status !== 200 || methods.status !== 200) {
    const failed = scenes.status !== 200 ? scenes : methods;
    showGlobalError(failed.data.error || 'the server did not answer');
    return;
  }
  if (status.status === 200 && status.data.version) {
    $('#version').textContent = `serve ${status.data.version}`;
  }
  state.registry = methods.data;
  const names = (state.registry.methods || []).map((method) => method.name);
  // The second pane starts on another method (a navigation mesh with the funnel, as
  // docs/serve.md shows it), so that comparing shows a difference at once.
  state.panes[1].method = ['navmesh', 'visgraph', ...names].find((name) => name !== 'grid' &&
    names.includes(name)) || 'grid';
  if (state.panes[1].method === 'navmesh') state.panes[1].smoother = 'funnel';
  for (const pane of state.panes) pane.fillSelects();
  const sceneSelect = $('#scene');
  const list = scenes.data.scenes;
  const shared = (name) => list.filter((scene) => scene.name === name).length > 1;
  sceneSelect.replaceChildren(...list.map((scene) => htmlElement('option',
    {value: scene.id, title: scene.id},
    !scene.name ? scene.id : shared(scene.name) ? `${scene.name} (${scene.id})` : scene.name)));
  sceneSelect.disabled = false;
  showPoints();
  if (list.length) await loadScene();
  else showGlobalError('the server has no scenes');
}

init();
