/**
 * A corpus of XSS payloads for the rich-text entry points (server storage test and the browser test e2e/xss.spec.ts).
 *
 * Every payload carries its own number N, and whatever it runs calls a hook the browser test installs:
 * `top.__xss(N)`, or alert(N), confirm(N), prompt(N) or print(), which the page hook overrides. A few payloads try to
 * navigate (meta refresh, javascript: and data: documents) or to load scripts and frames from `xss.invalid`, which the
 * browser test watches for. The corpus is built from classic vectors (OWASP cheat sheet, PortSwigger's list, DOMPurify's
 * mXSS reports) combined with URL encodings and wrapping contexts; `XSS_CORPUS` holds at least 500 distinct payloads
 * (distinct once their numbers are ignored).
 *
 * Plain TypeScript with no imports, so both the server tests and the Playwright specs can load it.
 */

export interface XssPayload {
  /** The number the payload reports when it runs (1-based, unique). */
  id: number;
  /** The family it comes from (script, handler, url, mxss, breakout, template, wrapped). */
  kind: string;
  html: string;
}

/** What runs when a payload executes: mostly the hook, sometimes the dialogs the hook overrides. */
function code(n: number): string {
  switch (n % 7) {
    case 2:
      return `alert(${n})`;
    case 4:
      return `confirm(${n})`;
    case 5:
      return `prompt(${n})`;
    default:
      return `top.__xss(${n})`;
  }
}

type Vector = (c: string, n: number) => string;

/** Script elements in their many spellings. */
const SCRIPT_VECTORS: Vector[] = [
  (c) => `<script>${c}</script>`,
  (c) => `<SCRIPT>${c}</SCRIPT>`,
  (c) => `<ScRiPt>${c}</sCrIpT>`,
  (c) => `<script type="text/javascript">${c};</script>`,
  (c) => `<script type="module">${c}</script>`,
  (c) => `<script/xss>${c}</script>`,
  (c) => `<script\t>${c}</script\t>`,
  (c) => `<script >${c}</script >`,
  (c) => `<<script>${c}//<</script>`,
  (c) => `<scr<script>ipt>${c}</scr</script>ipt>`,
  (c) => `<script src="data:text/javascript,${c}"></script>`,
  (c) => `<script src=data:,${c}></script>`,
  (_c, n) => `<script src="https://xss.invalid/${n}.js"></script>`,
  (_c, n) => `<script src=//xss.invalid/${n}.js></script>`,
  (c) => `<script>/*</script>*/${c}</script>`,
  (c) => `<script><!--\n${c}//--></script>`,
  (c) => `<script>\u2028${c}</script>`,
  (c) => `<script defer>${c}</script>`,
  (c) => `<script async src="data:text/javascript;base64,${base64(c)}"></script>`,
  (c) => `<svg><script>${c}</script></svg>`,
  (c) => `<svg><script href="data:,${c}" /></svg>`,
  (c) => `<svg><script xlink:href="data:,${c}"></script></svg>`,
  (c) => `<svg><script>&#x${hex(c.charCodeAt(0))};${c.slice(1)}</script></svg>`,
  (c) => `<math><script>${c}</script></math>`,
  (c) => `<div><script>${c}</script></div>`,
  (c) => `<p>text<script>${c}</script>more</p>`,
];

/** Event handlers on the elements that fire them without a click. */
const HANDLER_VECTORS: Vector[] = [
  (c) => `<img src=x onerror="${c}">`,
  (c) => `<img src=x onerror=${c}>`,
  (c) => `<IMG SRC=x OnErRoR=${c}>`,
  (c) => `<img/src="x"/onerror="${c}">`,
  (c) => `<img src onerror=${c}>`,
  (c) => `<img src=x:x onerror=${c}>`,
  (c) => `<img src=x onerror=${c}//`,
  (c) => `<img src="x" onerror='${c}'>`,
  (c) => `<img src=\`x\` onerror=\`${c}\`>`,
  (c) => `<img src=x onerror\n=\n"${c}">`,
  (c) => `<img src=x onerror="&#${c.charCodeAt(0)};${c.slice(1)}">`,
  (c) => `<img src=x onerror="javascript:${c}">`,
  (c) => `<img src=x onload=${c} onerror=${c}>`,
  (c) => `<image src=x onerror=${c}>`,
  (c) => `<img srcset=",,,,,x" onerror=${c}>`,
  (c) => `<picture><source srcset=x><img src=x onerror=${c}></picture>`,
  (c) => `<svg onload=${c}>`,
  (c) => `<svg/onload=${c}>`,
  (c) => `<SVG ONLOAD="${c}">`,
  (c) => `<svg><g onload=${c}></g></svg>`,
  (c) => `<svg><image href=x onerror=${c} /></svg>`,
  (c) => `<svg><animate onbegin=${c} attributeName=x dur=1s>`,
  (c) => `<svg><set onbegin=${c} attributename=x to=1>`,
  (c) => `<svg><animatetransform onbegin=${c} attributeName=transform>`,
  (c) => `<svg><discard onbegin=${c}>`,
  (c) => `<svg><foreignObject><img src=x onerror=${c}></foreignObject></svg>`,
  (c) => `<body onload=${c}>`,
  (c) => `<body onpageshow=${c}>`,
  (c) => `<body onfocus=${c}>`,
  (c) => `<details open ontoggle=${c}>`,
  (c) => `<details ontoggle="${c}" open><summary>x</summary>y</details>`,
  (c) => `<video src=x onerror=${c}>`,
  (c) => `<video><source onerror="${c}"></video>`,
  (c) => `<video poster=x onerror=${c}></video>`,
  (c) => `<audio src=x onerror=${c}>`,
  (c) => `<audio controls onloadstart=${c}><source src=x></audio>`,
  (c) => `<input autofocus onfocus=${c}>`,
  (c) => `<input onfocus="${c}" autofocus>`,
  (c) => `<input type=image src=x onerror=${c}>`,
  (c) => `<input onblur=${c} autofocus><input autofocus>`,
  (c) => `<textarea autofocus onfocus=${c}>x</textarea>`,
  (c) => `<select autofocus onfocus=${c}></select>`,
  (c) => `<button autofocus onfocus=${c}>x</button>`,
  (c) => `<a href="#" autofocus onfocus=${c}>x</a>`,
  (c) => `<div tabindex=1 autofocus onfocus=${c}>x</div>`,
  (c) => `<div contenteditable autofocus onfocus=${c}>x</div>`,
  (c) => `<keygen autofocus onfocus=${c}>`,
  (c) => `<marquee onstart=${c}>x</marquee>`,
  (c) => `<div onmouseover="${c}" style="position:fixed;inset:0">x</div>`,
  (c) => `<p onclick=${c}>x</p>`,
  (c) => `<span onpointerenter=${c}>x</span>`,
  (c) => `<style>@keyframes x{}</style><b style="animation-name:x" onanimationstart="${c}">x</b>`,
  (c) => `<b style="transition:color 1s" ontransitionend=${c}>x</b>`,
  (c) => `<iframe onload=${c}></iframe>`,
  (c) => `<object data=x onerror=${c}></object>`,
  (c) => `<embed src=x onload=${c}>`,
  (c) => `<frameset onload=${c}>`,
  (c) => `<table background=x onerror=${c}><tr><td>x</td></tr></table>`,
  (c) => `<x onclick=${c}>x</x>`,
  (c) => `<custom-el onfocus=${c} tabindex=1 autofocus>x</custom-el>`,
  (c) => `<a onmouseover=${c}>x</a>`,
  (c) => `<a href=x onclick=${c}>x</a>`,
  (c) => `<form><button formaction="javascript:${c}">x</button></form>`,
  (c) => `<form action="javascript:${c}"><input type=submit></form>`,
  (c) => `<isindex action=javascript:${c} type=image>`,
  (c) => `<img src=x onerror=eval(atob('${base64(c)}'))>`,
  (c) => `<img src=x onerror="eval('\\x${hex(c.charCodeAt(0))}${c.slice(1).replace(/'/g, "\\'")}')">`,
  (c) => `<img src=x onerror="window['ev'+'al']('${c}')">`,
  (c) => `<img src=x onerror="setTimeout('${c}')">`,
  (c) => `<img src=x onerror="Function('${c}')()">`,
  (c) => `<img src=x onerror="[].constructor.constructor('${c}')()">`,
  (c, n) => `<img src=x onerror="\\u0074op.__xss&#40;${n}&#41;;${c}">`,
  (c) => `<iframe srcdoc="&lt;script&gt;${c}&lt;/script&gt;"></iframe>`,
  (c) => `<iframe srcdoc="<img src=x onerror=${c}>"></iframe>`,
  (c) => `<iframe srcdoc='&#60;svg onload=${c}&#62;'></iframe>`,
  (c) => `<p srcdoc="<script>${c}</script>">x</p>`,
  (c) => `<svg><a><animate attributeName=href values=javascript:${c} /><text x=20 y=20>x</text></a></svg>`,
  (c) => `<svg><a><set attributeName=href to=javascript:${c} /><text x=20 y=20>x</text></a></svg>`,
  (c) => `<math><maction actiontype=statusline xlink:href=javascript:${c}>x</maction></math>`,
  (c) => `<math href=javascript:${c}>x</math>`,
  (c) => `<math><mi xlink:href="javascript:${c}">x</mi></math>`,
  (c) =>
    `<svg><use href="data:image/svg+xml,&lt;svg id='x' xmlns='http://www.w3.org/2000/svg'&gt;&lt;image href='x' onerror='${c}'/&gt;&lt;/svg&gt;#x"/></svg>`,
];

/** Elements whose URL attribute may run script or load a document. `U` is the URL. */
const URL_SINKS: ((u: string) => string)[] = [
  (u) => `<a href="${u}">link</a>`,
  (u) => `<a href='${u}' target=_blank>link</a>`,
  (u) => `<A HREF=${u.replace(/ /g, '&#32;')}>link</A>`,
  (u) => `<iframe src="${u}"></iframe>`,
  (u) => `<iframe sandbox="allow-scripts allow-top-navigation" src="${u}"></iframe>`,
  (u) => `<embed src="${u}">`,
  (u) => `<object data="${u}"></object>`,
  (u) => `<form action="${u}"><button>x</button></form>`,
  (u) => `<button formaction="${u}">x</button>`,
  (u) => `<svg><a xlink:href="${u}"><text x=20 y=20>x</text></a></svg>`,
  (u) => `<svg><a href="${u}"><text x=20 y=20>x</text></a></svg>`,
  (u) => `<img src="${u}">`,
  (u) => `<meta http-equiv="refresh" content="0;url=${u}">`,
  (u) => `<base href="${u}"><a href="/">x</a>`,
  (u) => `<map name=m><area href="${u}" shape=default></map><img usemap=#m src=x>`,
  (u) => `<link rel=stylesheet href="${u}">`,
  (u) => `<video poster="${u}"></video>`,
  (u) => `<blockquote cite="${u}">x</blockquote>`,
  (u) => `<math><mtext><a href="${u}">x</a></mtext></math>`,
];

/** The `javascript:` URL and its disguises; each takes the code. */
const URL_VARIANTS: ((c: string) => string)[] = [
  (c) => `javascript:${c}`,
  (c) => `JaVaScRiPt:${c}`,
  (c) => `javascript&colon;${c}`,
  (c) => `javascript&#58;${c}`,
  (c) => `javascript&#x3A;${c}`,
  (c) => `&#106;avascript:${c}`,
  (c) => `&#x6A;&#x61;&#x76;&#x61;script:${c}`,
  (c) => `&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058${c}`,
  (c) => `java&#x09;script:${c}`,
  (c) => `java&#10;script:${c}`,
  (c) => `java&#13;script:${c}`,
  (c) => `java\tscript:${c}`,
  (c) => `java\nscript:${c}`,
  (c) => ` &#14; javascript:${c}`,
  (c) => `\u0000javascript:${c}`,
  (c) => `java\u0000script:${c}`,
  (c) => `&#x20;javascript:${c}`,
  (c) => `javascript://%0a${c}`,
  (c) => `javascript:void(0);${c}`,
  (c) => `javascript:/*--></title></style></textarea></script><svg/onload=${c}>*/`,
  (c) => `data:text/html,<script>${c}</script>`,
  (c) => `DATA:text/html;base64,${base64(`<script>${c}</script>`)}`,
  (c) => `data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='${c}'/>`,
  (c) => `vbscript:msgbox(${c.match(/\d+/)?.[0] ?? 0})`,
  (c) => `VBScript:${c}`,
  (c) => `livescript:${c}`,
  (c) => `jar:javascript:${c}`,
];

/** Mutation XSS: markup that changes meaning when parsed again, and raw-text elements broken out of. */
const MXSS_VECTORS: Vector[] = [
  (c) => `<noscript><p title="</noscript><img src=x onerror=${c}>"></noscript>`,
  (c) => `<template><img src=x onerror=${c}></template>`,
  (c) => `<template><script>${c}</script></template>`,
  (c) => `<title><img src=x onerror=${c}></title>`,
  (c) => `<title></title><img src=x onerror=${c}>`,
  (c) => `<textarea><img title="</textarea><img src=x onerror=${c}>"></textarea>`,
  (c) => `<style><img src=x onerror=${c}></style>`,
  (c) => `<style></style><img src=x onerror=${c}>`,
  (c) => `<svg></p><style><a id="</style><img src=1 onerror=${c}>">`,
  (c) => `<svg><style><img src=x onerror=${c}></style></svg>`,
  (c) =>
    `<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=${c}&gt;">`,
  (c) => `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${c}>`,
  (c) =>
    `<math><mtext><h1><a><h6></a></h6><mglyph><svg><mtext><style><a title="</style><img src onerror=${c}>"></style></h1>`,
  (c) => `<svg><p><style><a id="</style><img src=1 onerror=${c}>"></p></svg>`,
  (c) =>
    `<math><mi><li><table><mi><mglyph><style><img src onerror=${c}></style></mglyph></mi></table></li></mi></math>`,
  (c) => `<xmp><img title="</xmp><img src=x onerror=${c}>"></xmp>`,
  (c) => `<iframe><img title="</iframe><img src=x onerror=${c}>"></iframe>`,
  (c) => `<noembed><img title="</noembed><img src=x onerror=${c}>"></noembed>`,
  (c) => `<noframes><img title="</noframes><img src=x onerror=${c}>"></noframes>`,
  (c) => `<plaintext><img src=x onerror=${c}>`,
  (c) => `<listing><img src=x onerror=${c}></listing>`,
  (c) => `<!--><img src=x onerror=${c}>-->`,
  (c) => `<!--<img src="--><img src=x onerror=${c}//">`,
  (c) => `<!--!><img src=x onerror=${c}>-->`,
  (c) => `<a title="--><img src=x onerror=${c}>">x</a>`,
  (c) => `<![CDATA[><img src=x onerror=${c}>]]>`,
  (c) => `<svg><![CDATA[><img src=x onerror=${c}>]]></svg>`,
  (c) => `<svg><![CDATA[</svg><img src=x onerror=${c}>]]>`,
  (c) => `<?xml-stylesheet ?><img src=x onerror=${c}>`,
  (c) => `<? ><img src=x onerror=${c}> ?>`,
  (c) => `<!DOCTYPE html><img src=x onerror=${c}>`,
  (c) => `<svg><desc><img src=x onerror=${c}></desc></svg>`,
  (c) => `<svg><title><img src=x onerror=${c}></title></svg>`,
  (c) => `<math><annotation-xml encoding="text/html"><img src=x onerror=${c}></annotation-xml></math>`,
  (c) => `<math><annotation-xml encoding="text/html"><style><img src=x onerror=${c}></style></annotation-xml></math>`,
  (c) => `<svg><foreignobject><p><style><img src=x onerror=${c}></style></p></foreignobject></svg>`,
  (c) => `<table><td><svg><style><img src=x onerror=${c}></style></svg></td></table>`,
  (c) => `<select><template><style><img src=x onerror=${c}></style></template></select>`,
  (c) => `<div id="1"><form id="test"></form><button form="test" formaction="javascript:${c}">x</button></div>`,
  (c) => `<img src="x" alt="\`\`><img src=x onerror=${c}>">`,
  (c) => `<p title="&lt;/p&gt;&lt;img src=x onerror=${c}&gt;">x</p>`,
  (c) => `<a href="https://example.com/&quot;&gt;&lt;img src=x onerror=${c}&gt;">x</a>`,
  (c) => `<img src=x id=cookie name=getElementById onerror=${c}>`,
  (c) => `<form id=__xss><input name=attributes onfocus=${c} autofocus></form>`,
];

/** Attribute and tag breakouts: what a naive template would concatenate into markup. */
const BREAKOUT_VECTORS: Vector[] = [
  (c) => `"><img src=x onerror=${c}>`,
  (c) => `'><svg onload=${c}>`,
  (c) => `" onmouseover="${c}`,
  (c) => `' onfocus='${c}' autofocus='`,
  (c) => `" autofocus onfocus=${c} x="`,
  (c) => `</p><script>${c}</script>`,
  (c) => `</textarea><script>${c}</script>`,
  (c) => `</title><script>${c}</script>`,
  (c) => `</style><script>${c}</script>`,
  (c) => `</script><script>${c}</script>`,
  (c) => `--></script><script>${c}</script>`,
  (c) => `]]><script>${c}</script>`,
  (c) => `\\"><script>${c}</script>`,
  (c) => `%3Cscript%3E${c}%3C/script%3E`,
  (c) => `&lt;script&gt;${c}&lt;/script&gt;`,
  (c) => `&amp;lt;img src=x onerror=${c}&amp;gt;`,
  (c) => `\\u003cimg src=x onerror=${c}\\u003e`,
  (c) => `\\x3cimg src=x onerror=${c}\\x3e`,
  (c) => `＜script＞${c}＜/script＞`,
  (c) => `<img src=x onerror=${c}\u0000>`,
  (c) => `<im\u0000g src=x onerror=${c}>`,
  (c) => `<img\u000csrc=x\u000conerror=${c}>`,
  (c) => `<img\u2003src=x onerror=${c}>`,
  (c) => `<img src=x onerror=${c} =">`,
];

/** Template-injection strings for client template engines (Angular, Vue, Handlebars, lodash, JSP, ERB). */
const TEMPLATE_VECTORS: Vector[] = [
  (c) => `{{constructor.constructor('${c}')()}}`,
  (c) => `{{$on.constructor('${c}')()}}`,
  (c) => `{{$eval.constructor('${c}')()}}`,
  (c) => `<div ng-app ng-csp>{{$on.curry.call().${c}}}</div>`,
  (c) => `{{_c.constructor('${c}')()}}`,
  (c) => `<div v-html="'<img src=x onerror=${c}>'"></div>`,
  (c) => `<div v-on:click="${c}">x</div>`,
  (c) => `<div x-data x-init="${c}">x</div>`,
  (c) => `<p data-bind="html: '<img src=x onerror=${c}>'">x</p>`,
  (c) => `\${${c}}`,
  (c) => `<%= ${c} %>`,
  (c) => `#{${c}}`,
  (c) => `[[${c}]]`,
  (c) => `{{#with "s" as |string|}}{{string.sub.apply 0 "${c}"}}{{/with}}`,
  (c) => `{% ${c} %}`,
  (c) => `{{= ${c} }}`,
];

/** Contexts each element vector is also tried in. */
const WRAPPERS: ((html: string) => string)[] = [
  (h) => `<p>${h}</p>`,
  (h) => `<table><tr><td>${h}</td></tr></table>`,
  (h) => `<ul><li>${h}</li></ul>`,
  (h) => `<svg>${h}</svg>`,
  (h) => `<math>${h}</math>`,
  (h) => `<a href="https://example.com">${h}</a>`,
];

/** Payloads that try to load something from elsewhere or move the page, beyond the URL sinks above. */
const EXTERNAL_VECTORS: Vector[] = [
  (_c, n) => `<iframe src="https://xss.invalid/${n}"></iframe>`,
  (_c, n) => `<embed src="https://xss.invalid/${n}.swf">`,
  (_c, n) => `<object data="https://xss.invalid/${n}.html" type="text/html"></object>`,
  (_c, n) => `<link rel=import href="https://xss.invalid/${n}.html">`,
  (_c, n) => `<link rel=prefetch href="https://xss.invalid/${n}">`,
  (_c, n) => `<meta http-equiv="refresh" content="0;url=https://xss.invalid/${n}">`,
  (_c, n) => `<meta http-equiv="set-cookie" content="xss=${n}">`,
  (_c, n) => `<base href="https://xss.invalid/${n}/">`,
  (_c, n) => `<style>@import "https://xss.invalid/${n}.css";</style>`,
  (_c, n) => `<div style="background:url('https://xss.invalid/${n}.png')">x</div>`,
  (c) => `<div style="background-image:url(javascript:${c})">x</div>`,
  (c) => `<div style="width:expression(${c})">x</div>`,
  (c) => `<div style="behavior:url(#default#time2)" onbegin="${c}">x</div>`,
  (c) => `<div style="-moz-binding:url(data:text/xml,${c})">x</div>`,
  (_c, n) => `<svg><use href="https://xss.invalid/${n}.svg#x"></use></svg>`,
  (_c, n) => `<svg><image href="https://xss.invalid/${n}.svg"></image></svg>`,
  (_c, n) => `<form action="https://xss.invalid/${n}"><input name=q value=1><button>go</button></form>`,
  (_c, n) => `<a href="https://xss.invalid/${n}" ping="https://xss.invalid/ping">x</a>`,
  (_c, n) => `<frameset><frame src="https://xss.invalid/${n}"></frameset>`,
  (_c, n) => `<applet code="https://xss.invalid/${n}.class"></applet>`,
  (_c, n) => `<portal src="https://xss.invalid/${n}"></portal>`,
  (_c, n) => `<img src="https://xss.invalid/${n}.png" srcset="https://xss.invalid/${n}b.png 2x">`,
];

function hex(code: number): string {
  return code.toString(16).padStart(2, '0');
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** A payload with its number replaced, to tell truly different payloads from renumbered ones. */
export function payloadShape(html: string, id: number): string {
  return html.split(String(id)).join('N');
}

function build(): XssPayload[] {
  const out: XssPayload[] = [];
  const shapes = new Set<string>();
  const add = (kind: string, make: (n: number) => string) => {
    const n = out.length + 1;
    const html = make(n);
    const shape = payloadShape(html, n);
    if (shapes.has(shape)) return;
    shapes.add(shape);
    out.push({ id: n, kind, html });
  };
  for (const v of SCRIPT_VECTORS) add('script', (n) => v(code(n), n));
  for (const v of HANDLER_VECTORS) add('handler', (n) => v(code(n), n));
  for (const sink of URL_SINKS) {
    for (const variant of URL_VARIANTS) add('url', (n) => sink(variant(code(n))));
  }
  for (const v of MXSS_VECTORS) add('mxss', (n) => v(code(n), n));
  for (const v of BREAKOUT_VECTORS) add('breakout', (n) => v(code(n), n));
  for (const v of TEMPLATE_VECTORS) add('template', (n) => v(code(n), n));
  for (const v of EXTERNAL_VECTORS) add('external', (n) => v(code(n), n));
  // The print dialog as the sink, for a handful of the element vectors.
  for (const v of HANDLER_VECTORS.slice(0, 12)) add('handler-print', (n) => v(`print(${n})`, n));
  // Element vectors again, nested in the contexts that change how HTML is parsed (tables, foreign content, links).
  for (const wrap of WRAPPERS) {
    for (const v of [...SCRIPT_VECTORS.slice(0, 6), ...HANDLER_VECTORS.slice(0, 40), ...MXSS_VECTORS.slice(0, 10)]) {
      add('wrapped', (n) => wrap(v(code(n), n)));
    }
  }
  return out;
}

export const XSS_CORPUS: readonly XssPayload[] = build();

/** Splits the corpus into groups of at most `size` payloads (one stored document each). */
export function xssBatches(size: number, payloads: readonly XssPayload[] = XSS_CORPUS): XssPayload[][] {
  const batches: XssPayload[][] = [];
  for (let i = 0; i < payloads.length; i += size) batches.push(payloads.slice(i, i + size));
  return batches;
}

/** One payload as a block of rich text, labelled so a reader of the stored document can find it. */
export function xssBlock(p: XssPayload): string {
  return `<p>payload ${p.id}</p>${p.html}`;
}
