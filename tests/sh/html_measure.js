// Injected by test_report_html.sh into a temporary copy of report.html (never
// into the report itself): measures the laid-out page and writes what it found
// into the data-measure attribute of <html>, which --dump-dom then prints.
// The test sets measure_width first: headless chromium lays a page out at least
// 500 px wide before it shrinks the window for the screenshot, so the page is
// held to that width here, as a phone's window would hold it.
// A .scroll box (a table, a chart) may hold more than its width on purpose: what
// it holds is recorded (tables, svgs) for html_check.py to judge by the width.
(function () {
	var vw = measure_width, found = [], svgs = [], tables = [];
	var SVG = 'http://www.w3.org/2000/svg';
	var name = function (e) { return e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined && e.className ? '.' + e.className : ''); };
	var box = function (e) {	// the scrolling box around e, or its parent
		var b = e.parentElement.closest('.scroll') || e.parentElement;
		return { bw: b.clientWidth, bsw: b.scrollWidth };
	};

	document.documentElement.style.width = vw + 'px';
	if (document.body.scrollWidth > vw)
		found.push('the page is ' + document.body.scrollWidth + ' px wide in a ' + vw + ' px window');
	document.querySelectorAll('body *').forEach(function (e) {
		var r = e.getBoundingClientRect(), b;

		if (e.namespaceURI === SVG && e.tagName !== 'svg')
			return;	// inside a chart: its drawing, measured as one box below
		if (e.tagName === 'svg') {
			var vb = e.viewBox.baseVal;
			b = box(e);
			svgs.push({ w: r.width, h: r.height, vbw: vb ? vb.width : 0, vbh: vb ? vb.height : 0,
				    bw: b.bw, bsw: b.bsw, marks: e.querySelectorAll('path, use, rect').length });
		} else if (e.tagName === 'TABLE') {
			b = box(e);
			tables.push({ w: r.width, right: r.right, bw: b.bw, bsw: b.bsw });
		}
		if (e.parentElement.closest('.scroll'))
			return;	// in a box that scrolls sideways on purpose: judged by html_check.py
		if (!e.classList.contains('scroll') && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1)
			found.push(name(e) + ' holds ' + e.scrollWidth + ' px in ' + e.clientWidth + ' px');
		if (r.width > 0 && (r.left < -0.5 || r.right > vw + 0.5))
			found.push(name(e) + ' spans ' + Math.round(r.left) + '..' + Math.round(r.right) + ' px of a ' + vw + ' px window');
	});
	document.documentElement.setAttribute('data-measure', JSON.stringify({ width: vw, overflow: found, svgs: svgs, tables: tables }));
})();
