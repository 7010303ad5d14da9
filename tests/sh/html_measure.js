// Injected by test_report_html.sh into a temporary copy of report.html (never
// into the report itself): measures the laid-out page and writes what it found
// into the data-measure attribute of <html>, which --dump-dom then prints.
// The test sets measure_width first: headless chromium lays a page out at least
// 500 px wide before it shrinks the window for the screenshot, so the page is
// held to that width here, as a phone's window would hold it.
(function () {
	var vw = measure_width, found = [], svgs = [];
	var SVG = 'http://www.w3.org/2000/svg';
	var name = function (e) { return e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined && e.className ? '.' + e.className : ''); };

	document.documentElement.style.width = vw + 'px';
	if (document.body.scrollWidth > vw)
		found.push('the page is ' + document.body.scrollWidth + ' px wide in a ' + vw + ' px window');
	document.querySelectorAll('body *').forEach(function (e) {
		var r;

		if (e.namespaceURI === SVG && e.tagName !== 'svg')
			return;	// inside a chart: its drawing, measured as one box below
		if (e.closest('.scroll'))
			return;	// a table that scrolls sideways on purpose
		r = e.getBoundingClientRect();
		if (e.tagName === 'svg') {
			var vb = e.viewBox.baseVal;
			svgs.push({ w: r.width, h: r.height, vbw: vb ? vb.width : 0, vbh: vb ? vb.height : 0,
				    marks: e.querySelectorAll('path, use, rect').length });
		} else if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) {
			found.push(name(e) + ' holds ' + e.scrollWidth + ' px in ' + e.clientWidth + ' px');
		}
		if (r.width > 0 && (r.left < -0.5 || r.right > vw + 0.5))
			found.push(name(e) + ' spans ' + Math.round(r.left) + '..' + Math.round(r.right) + ' px of a ' + vw + ' px window');
	});
	document.documentElement.setAttribute('data-measure', JSON.stringify({ width: vw, overflow: found, svgs: svgs }));
})();
